import { config } from 'zod/v4/core';

// Zod compiles object schemas with `new Function` when it may, and probes for that with a caught
// `new Function("")`; under the gateway's CSP (`script-src 'self'`, no 'unsafe-eval') the probe is
// still reported as a violation on every page. Jitless skips the probe and the compilation. The
// setting lives on globalThis, so the remotes' own copies of zod follow it; it must run before any
// schema is built, hence the first import of bootstrap.tsx.
config({ jitless: true });
