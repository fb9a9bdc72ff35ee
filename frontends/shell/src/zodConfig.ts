// Zod compiles object schemas with `new Function` when it may, and probes for that with a caught
// `new Function("")`; under the gateway's CSP (`script-src 'self'`, no 'unsafe-eval') the probe is
// still reported as a violation on every page. Jitless skips the probe and the compilation.
//
// Zod keeps its settings on globalThis (`__zod_globalConfig`) and adopts an object already there, so
// the shell's and the remotes' copies of zod all follow it. Setting it directly, rather than through
// `config()` from zod/v4/core, keeps zod's core (~3 KiB gzip) off pages that build no schema, such as
// the landing page; test/zodConfig.test.ts checks that zod still reads it. It must run before any
// schema is built, hence the first import of bootstrap.tsx.
type ZodGlobal = { __zod_globalConfig?: { jitless?: boolean } };
const zodGlobal = globalThis as ZodGlobal;
zodGlobal.__zod_globalConfig = { ...zodGlobal.__zod_globalConfig, jitless: true };
