// Shared rspack + Module Federation configuration for the shell (host) and the remotes.
// Each frontend's rspack.config.mjs calls createFrontendConfig() with its own name, port and exposes.
import { createRequire } from 'node:module';
import path from 'node:path';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { rspack } from '@rspack/core';
import ReactRefreshPlugin from '@rspack/plugin-react-refresh';

const require = createRequire(import.meta.url);

/** Evergreen browsers only (ES2022, CSS nesting-era); keeps the output small. */
const BROWSER_TARGETS = 'chrome >= 111, edge >= 111, firefox >= 113, safari >= 16.4';

/** Dev-server ports (docs/CONVENTIONS.md). */
export const DEV_PORTS = { shell: 3000, market: 3001, wallet: 3002, admin: 3003 };
export const REMOTE_NAMES = ['market', 'wallet', 'admin'];

/** Modules that must exist once per page: the shell provides them, remotes consume them. */
function sharedSingletons(pkg) {
  const deps = { ...pkg.dependencies };
  const singleton = (name, requiredVersion = deps[name]) => ({
    singleton: true,
    requiredVersion: requiredVersion ?? false,
  });
  return {
    react: singleton('react'),
    'react/jsx-runtime': singleton('react/jsx-runtime', deps.react),
    'react/jsx-dev-runtime': singleton('react/jsx-dev-runtime', deps.react),
    'react-dom': singleton('react-dom'),
    'react-dom/client': singleton('react-dom/client', deps['react-dom']),
    'react-router': singleton('react-router', deps['react-router-dom']),
    'react-router-dom': singleton('react-router-dom'),
    '@tanstack/react-query': singleton('@tanstack/react-query'),
    '@mantine/core': singleton('@mantine/core'),
    '@mantine/hooks': singleton('@mantine/hooks'),
    '@mantine/notifications': singleton('@mantine/notifications'),
    '@mantine/modals': singleton('@mantine/modals'),
    // Workspace package consumed as TypeScript source; one copy so its React context/helpers are shared.
    '@qm/ui': { singleton: true, requiredVersion: false },
  };
}

/** Module Federation, the shell's HTML and static files, and Fast Refresh in development. */
function plugins({ name, isHost, isDev, exposes, pkg }) {
  return [
    new ModuleFederationPlugin({
      name,
      ...(isHost
        ? { remotes: {} } // remotes are registered at runtime from /remotes/<name>/mf-manifest.json
        : { filename: 'remoteEntry.js', exposes }),
      // loaded-first: never fetch a remote just to negotiate versions, so a remote that is down cannot
      // block the shell from starting, and the landing page loads no remote code at all.
      shareStrategy: 'loaded-first',
      shared: sharedSingletons(pkg),
      manifest: true,
      dts: false,
      dev: false,
    }),
    isHost &&
      new rspack.HtmlRspackPlugin({
        template: './public/index.html',
        inject: 'body',
        scriptLoading: 'defer',
      }),
    isHost &&
      new rspack.CopyRspackPlugin({
        patterns: [{ from: 'public', globOptions: { ignore: ['**/index.html'] } }],
      }),
    // The shared runtime below must not be instrumented itself: its refresh footer would call
    // $ReactRefreshRuntime$ while that module is still loading it (a circular require).
    isDev && new ReactRefreshPlugin({ exclude: [/node_modules/, /[\\/]frontends[\\/]dev[\\/]/] }),
    // One Fast Refresh runtime per page, shared by the shell and the remotes (see dev/react-refresh-runtime.cjs).
    isDev &&
      new rspack.NormalModuleReplacementPlugin(
        /^react-refresh\/runtime(\.js)?$/,
        path.join(import.meta.dirname, 'dev', 'react-refresh-runtime.cjs'),
      ),
  ].filter(Boolean);
}

/** The dev server: the shell proxies the remotes and the API; a remote serves under /remotes/<name>/. */
function devServerConfig({ name, isHost, port, publicPath }) {
  // HMR websocket path; it goes through the page's origin (gateway on 8080 or the shell dev server),
  // which proxies /remotes/<name>/* (including the websocket upgrade) to the remote's dev server.
  // QM_HMR_DIRECT=1 makes remotes connect straight to their own dev server instead.
  const wsPath = isHost ? '/ws' : `/remotes/${name}/ws`;
  const wsURL =
    !isHost && process.env.QM_HMR_DIRECT === '1'
      ? `ws://localhost:${port}${wsPath}`
      : `auto://0.0.0.0:0${wsPath}`;
  return {
    port,
    host: '0.0.0.0',
    hot: true,
    allowedHosts: 'all',
    headers: {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
      'Access-Control-Allow-Headers': '*',
    },
    client: { webSocketURL: wsURL, overlay: { errors: true, warnings: false } },
    webSocketServer: { type: 'ws', options: { path: wsPath } },
    devMiddleware: { publicPath },
    ...(isHost
      ? {
          historyApiFallback: { disableDotRule: true, index: '/index.html' },
          // Opened directly on :3000 (without the gateway) the shell still finds the remotes and the API.
          proxy: [
            ...REMOTE_NAMES.map((remote) => ({
              context: [`/remotes/${remote}`],
              target: `http://127.0.0.1:${DEV_PORTS[remote]}`,
              ws: true,
              changeOrigin: true,
            })),
            {
              context: ['/api'],
              target: process.env.QM_GATEWAY_URL ?? 'http://127.0.0.1:8080',
              changeOrigin: false,
            },
          ],
        }
      : {
          historyApiFallback: false,
          // Accept the path with or without the /remotes/<name> prefix (in case a proxy strips it).
          setupMiddlewares: (middlewares) => {
            middlewares.unshift({
              name: 'qm-remote-prefix',
              middleware: (req, _res, next) => {
                if (req.url && !req.url.startsWith(publicPath) && !req.url.startsWith(wsPath)) {
                  req.url = publicPath + req.url.replace(/^\//, '');
                }
                next();
              },
            });
            return middlewares;
          },
        }),
  };
}

/**
 * @param {object} o
 * @param {string} o.name      shell | market | wallet | admin
 * @param {string} o.dir       the frontend's directory (import.meta.dirname of its config)
 * @param {Record<string,string>} [o.exposes]  remotes only
 * @param {'development'|'production'} [o.mode]
 */
export function createFrontendConfig({ name, dir, exposes, mode }) {
  const isDev = mode !== 'production';
  const isHost = name === 'shell';
  const port = DEV_PORTS[name];
  const publicPath = isHost ? '/' : `/remotes/${name}/`;
  const pkg = require(path.join(dir, 'package.json'));

  /** @type {import('@rspack/core').Configuration} */
  const config = {
    mode: isDev ? 'development' : 'production',
    context: dir,
    entry: isHost ? { main: './src/index.ts' } : {},
    devtool: isDev ? 'cheap-module-source-map' : 'source-map',
    target: 'web',
    output: {
      path: path.join(dir, 'dist'),
      publicPath,
      uniqueName: `qm_${name}`,
      filename: isDev ? '[name].js' : '[name].[contenthash:8].js',
      chunkFilename: isDev ? '[name].js' : '[name].[contenthash:8].js',
      cssFilename: isDev ? '[name].css' : '[name].[contenthash:8].css',
      cssChunkFilename: isDev ? '[name].css' : '[name].[contenthash:8].css',
      clean: true,
    },
    resolve: {
      extensions: ['.tsx', '.ts', '.mjs', '.js', '.jsx', '.json'],
      // @qm/* workspace packages are TypeScript sources.
      extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
    },
    experiments: { css: true },
    module: {
      rules: [
        {
          test: /\.[cm]?[jt]sx?$/,
          exclude: /node_modules/,
          loader: 'builtin:swc-loader',
          /** @type {import('@rspack/core').SwcLoaderOptions} */
          options: {
            jsc: {
              parser: { syntax: 'typescript', tsx: true },
              transform: { react: { runtime: 'automatic', development: isDev, refresh: isDev } },
            },
            env: { targets: BROWSER_TARGETS },
          },
          type: 'javascript/auto',
        },
        // Our own CSS goes through postcss-preset-mantine; library CSS (Mantine's styles.css) is prebuilt.
        { test: /\.css$/, exclude: /node_modules/, use: [{ loader: 'postcss-loader' }], type: 'css/auto' },
        { test: /\.css$/, include: /node_modules/, type: 'css/auto' },
      ],
    },
    plugins: plugins({ name, isHost, isDev, exposes, pkg }),
    optimization: isDev
      ? {}
      : {
          minimize: true,
          minimizer: [
            new rspack.SwcJsMinimizerRspackPlugin(),
            // Without explicit targets lightningcss lowers for old browsers and doubles Mantine's CSS.
            new rspack.LightningCssMinimizerRspackPlugin({ minimizerOptions: { targets: BROWSER_TARGETS } }),
          ],
        },
    performance: { hints: false },
    // rspack serve compiles dynamic imports on first use when the browser asks the dev server at the
    // page's origin; behind the gateway that origin is the shell's, so a remote's lazy chunk (the admin
    // dashboard's charts) would wait forever. Everything is compiled up front instead.
    lazyCompilation: false,
    devServer: devServerConfig({ name, isHost, port, publicPath }),
  };
  return config;
}
