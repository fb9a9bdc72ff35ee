import { createFrontendConfig } from '../rspack.shared.mjs';

export default (_env, argv) =>
  createFrontendConfig({
    name: 'shell',
    dir: import.meta.dirname,
    mode: argv.mode ?? process.env.NODE_ENV ?? 'development',
  });
