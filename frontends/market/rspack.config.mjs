import { createFrontendConfig } from '../rspack.shared.mjs';

export default (_env, argv) =>
  createFrontendConfig({
    name: 'market',
    dir: import.meta.dirname,
    mode: argv.mode ?? process.env.NODE_ENV ?? 'development',
    exposes: {
      './routes': './src/routes.tsx',
      './health': './src/health.tsx',
    },
  });
