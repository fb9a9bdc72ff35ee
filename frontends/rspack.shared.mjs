// Shared rspack + Module Federation configuration for the shell (host) and the remotes.
// Each frontend's rspack.config.mjs calls createFrontendConfig() with its own name, port and exposes.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { rspack } from '@rspack/core';
import ReactRefreshPlugin from '@rspack/plugin-react-refresh';
import { reexportModule, subsetNames, SUBSETS } from './shared-exports.mjs';

const require = createRequire(import.meta.url);
const brotliCompress = promisify(zlib.brotliCompress);

/** Evergreen browsers only (ES2022, CSS nesting-era); keeps the output small. */
const BROWSER_TARGETS = 'chrome >= 111, edge >= 111, firefox >= 113, safari >= 16.4';

/** Dev-server ports (docs/CONVENTIONS.md). */
export const DEV_PORTS = { shell: 3000, market: 3001, wallet: 3002, admin: 3003 };
export const REMOTE_NAMES = ['market', 'wallet', 'admin'];

/** The virtual module of a subset, imported by the shell as `qm-shared/<share key>` (an alias). */
const subsetFile = (key) => `node_modules/.qm-shared/${key.replaceAll('/', '+')}.mjs`;
const ROUTER_PACKAGES = SUBSETS['react-router-dom'].packages;

/**
 * Modules that must exist once per page: the shell provides them, remotes consume them. Package name →
 * the semver range the frontend's package.json asks for (`false`: a workspace package, any version).
 */
function sharedRanges(pkg) {
  const deps = { ...pkg.dependencies };
  return {
    react: deps.react,
    'react/jsx-runtime': deps.react,
    'react/jsx-dev-runtime': deps.react,
    'react-dom': deps['react-dom'],
    'react-dom/client': deps['react-dom'],
    'react-router': deps['react-router-dom'],
    'react-router-dom': deps['react-router-dom'],
    '@tanstack/react-query': deps['@tanstack/react-query'],
    '@mantine/core': deps['@mantine/core'],
    '@mantine/hooks': deps['@mantine/hooks'],
    '@mantine/notifications': deps['@mantine/notifications'],
    '@mantine/modals': deps['@mantine/modals'],
    // Workspace package consumed as TypeScript source; one copy so its React context/helpers are shared.
    '@qm/ui': false,
    '@qm/contracts/rest': false,
  };
}

/**
 * The installed version of a package, also of one whose `exports` hide its package.json (Mantine) or
 * that has no main entry (@qm/contracts: `entry` is one of its subpaths).
 */
function packageVersion(name, entry = name) {
  let dir = path.dirname(require.resolve(entry));
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      const json = JSON.parse(readFileSync(file, 'utf8'));
      if (json.name === name) return json.version;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json of ${name} above ${require.resolve(name)}`);
    dir = parent;
  }
}

/**
 * React Router's production build. Its package exports only the development build (with its warnings
 * switched on) to every condition a bundler asks for, so a production bundle has to name the other.
 */
export const REACT_ROUTER_PRODUCTION = (() => {
  const dist = path.join(path.dirname(require.resolve('react-router')), '..', 'production');
  const files = { 'react-router$': 'index.mjs', 'react-router/dom$': 'dom-export.mjs' };
  return Object.fromEntries(
    Object.entries(files).map(([request, file]) => {
      const target = path.join(dist, file);
      if (!existsSync(target)) throw new Error(`React Router's production build is not at ${target}`);
      return [request, target];
    }),
  );
})();

/** A remote consumes each shared module as a singleton; its own copy is only a fallback when it runs alone. */
function remoteShared(pkg) {
  return Object.fromEntries(
    Object.entries(sharedRanges(pkg)).map(([name, range]) => [
      name,
      { singleton: true, requiredVersion: range ?? false },
    ]),
  );
}

/**
 * What the shell registers in the share scope, for `src/remotes/federation.ts` (defined as
 * `__QM_SHARED__`): each module's installed version and the range the shell asks for.
 *
 * The shell has no Module Federation build plugin: a consumed shared module is a whole package (all of
 * Mantine, React Router and React Query before the first render), and the plugin's runtime (~22 KiB
 * gzip) would load with every page. Instead the shell imports the packages like any other (tree-shaken,
 * split per route) and creates the federation runtime the first time a remote page is visited, providing
 * each shared module through a dynamic import of its own build, so a remote gets the very module
 * instances (React contexts included) the shell already runs (ADR 017).
 */
function hostShared(pkg) {
  // React Router's subset stands for both of its packages, under react-router-dom's version.
  const installed = (name) =>
    ROUTER_PACKAGES.includes(name)
      ? packageVersion('react-router-dom')
      : packageVersion(
          name
            .split('/')
            .slice(0, name.startsWith('@') ? 2 : 1)
            .join('/'),
          name,
        );
  return Object.fromEntries(
    Object.entries(sharedRanges(pkg)).map(([name, range]) => [
      name,
      { version: installed(name), requiredVersion: range ?? false },
    ]),
  );
}

/** Module Federation, the shell's HTML and static files, and Fast Refresh in development. */
function plugins({ name, isHost, isDev, exposes, pkg }) {
  return [
    !isHost &&
      new ModuleFederationPlugin({
        name,
        filename: 'remoteEntry.js',
        exposes,
        // loaded-first: never fetch a remote just to negotiate versions, so a remote that is down cannot
        // block the shell from starting; the shell's modules are the ones every remote resolves to.
        shareStrategy: 'loaded-first',
        shared: remoteShared(pkg),
        manifest: true,
        dts: false,
        dev: false,
        // The shell's runtime-core (federation.ts puts it on the global): not a second copy in every
        // remoteEntry.js. A remote therefore loads only under the shell, which is the only way it is served.
        experiments: { externalRuntime: true },
      }),
    // V8's explicit compile hint (Chrome 136): each of the shell's scripts (fetched when it is about to
    // run) is compiled whole while it streams in, off the main thread, instead of function by function as
    // each is first called, on it. Measured: landing LCP 2.1 -> 1.1 s, signed-in pages' blocking time
    // down by a fifth; on the remotes' scripts no gain, so not there (ADR 018). After minification
    // (which drops the comment) and before the source map (which must count the line).
    isHost &&
      !isDev &&
      new rspack.BannerPlugin({
        banner: '//# allFunctionsCalledOnLoad',
        raw: true,
        test: /\.js$/,
        stage: rspack.Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_SIZE + 1,
      }),
    isHost &&
      new rspack.DefinePlugin({
        __QM_SHARED__: JSON.stringify(hostShared(pkg)),
        __QM_BUILD_YEAR__: String(new Date().getFullYear()),
      }),
    isHost &&
      new rspack.experiments.VirtualModulesPlugin({
        ...Object.fromEntries(
          Object.keys(SUBSETS).map((key) => [subsetFile(key), reexportModule(key, subsetNames(key))]),
        ),
      }),
    isHost &&
      new rspack.HtmlRspackPlugin({
        template: './public/index.html',
        inject: 'body',
        scriptLoading: 'defer',
      }),
    isHost && new PreloadFontsPlugin(),
    !isDev && new PrecompressPlugin(),
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

/**
 * Preloads the shell's web font from the HTML, beside its stylesheet instead of after it: it then arrives
 * before the first paint, and the text is drawn once in Inter rather than drawn in the system font and
 * again when Inter swaps in (fonts.css; the swap made the prerendered frame's text a second, later
 * largest paint on a phone, one that waited for the scripts).
 */
class PreloadFontsPlugin {
  apply(compiler) {
    compiler.hooks.compilation.tap('PreloadFontsPlugin', (compilation) => {
      rspack.HtmlRspackPlugin.getCompilationHooks(compilation).alterAssetTagGroups.tapPromise(
        'PreloadFontsPlugin',
        async (data) => {
          const fonts = compilation.getAssets().filter((asset) => asset.name.endsWith('.woff2'));
          const links = fonts.map((font) => ({
            tagName: 'link',
            voidTag: true,
            attributes: {
              rel: 'preload',
              href: `${data.publicPath}${font.name}`,
              as: 'font',
              type: 'font/woff2',
              crossorigin: '',
            },
          }));
          return { ...data, headTags: [...links, ...data.headTags] };
        },
      );
    });
  }
}

/** What a browser fetches as text and the gateway serves from disk (not the HTML, which it writes per request). */
const PRECOMPRESSED_ASSETS = /\.(js|css|json|svg)$/;

/**
 * Writes each script, stylesheet and manifest also as `<name>.br`, at brotli's highest quality, which is
 * too slow to run per request: about 15 % smaller than what the gateway's compression middleware sends
 * (brotli at quality 4), and no CPU per request. The gateway sends it to browsers that take brotli
 * (gateway/src/http/frontends.ts). A file it would not make smaller is left without one.
 */
export class PrecompressPlugin {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('PrecompressPlugin', (compilation) => {
      compilation.hooks.processAssets.tapPromise(
        { name: 'PrecompressPlugin', stage: rspack.Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_TRANSFER },
        async (assets) => {
          const params = {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          };
          await Promise.all(
            Object.keys(assets)
              .filter((name) => PRECOMPRESSED_ASSETS.test(name))
              .map(async (name) => {
                const source = compilation.getAsset(name).source.buffer();
                const compressed = await brotliCompress(source, { params });
                if (compressed.length < source.length)
                  compilation.emitAsset(`${name}.br`, new rspack.sources.RawSource(compressed));
              }),
          );
        },
      );
    });
    // The file sent must be the file built: each .br, once written, is decompressed and compared with
    // its sibling on disk (a stage before minification once compressed the unminified source).
    compiler.hooks.afterEmit.tapPromise('PrecompressPlugin', async (compilation) => {
      const out = compilation.outputOptions.path;
      for (const name of Object.keys(compilation.assets).filter((n) => n.endsWith('.br'))) {
        const built = readFileSync(path.join(out, name.slice(0, -'.br'.length)));
        if (!zlib.brotliDecompressSync(readFileSync(path.join(out, name))).equals(built))
          compilation.errors.push(new rspack.WebpackError(`${name} is not the brotli of the file beside it`));
      }
    });
  }
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
 * The shell's chunk of the modules it shares with the remotes (the webpackChunkName of their imports in
 * frontends/shell/src/remotes/federation.ts). It is kept whole: split as the other lazy chunks are, a
 * remote's page fetched it as about twenty chunks, those of its Mantine components that the shell's own
 * lazy pages use too each split out of it. Those pages keep their own copies.
 */
export const SHARED_CHUNK = 'qm-shared';
/**
 * Chunks a signed-in page loads beside SHARED_CHUNK (the navigation's, named in
 * frontends/shell/src/layout/Navigation.tsx): what they have in common with it is split out once, as
 * usual, instead of being repeated on every signed-in page.
 */
export const SIGNED_IN_CHUNKS = [SHARED_CHUNK, 'user-nav', 'admin-nav'];

/**
 * Our TypeScript and JSX, compiled by SWC for the browsers we support; in development with Fast
 * Refresh. The frontends' builds and the phone floor's pages (load/lib/phone-floor.mjs) use it.
 */
export function sourceRule({ isDev = false } = {}) {
  return {
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
      alias: {
        ...(isDev ? {} : REACT_ROUTER_PRODUCTION),
        ...(isHost
          ? Object.fromEntries(
              Object.keys(SUBSETS).map((key) => [`qm-shared/${key}$`, path.join(dir, subsetFile(key))]),
            )
          : {}),
      },
    },
    experiments: { css: true },
    module: {
      rules: [
        sourceRule({ isDev }),
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
          // A remote's chunks are not split: a chunk that an expose shares with a shared module's fallback
          // copy is left out of the expose's assets in the manifest, so the runtime fetched it only when
          // the page's code ran, one round trip after the rest. The fallback copies (used only by a remote
          // served alone) repeat those modules instead.
          // The shell splits its lazy chunks as usual (the entry stays one script), all but SHARED_CHUNK,
          // which shares only with the other chunks of a signed-in page.
          ...(isHost
            ? {
                splitChunks: {
                  chunks: (chunk) => chunk.name !== 'main' && chunk.name !== SHARED_CHUNK,
                  cacheGroups: {
                    signedIn: {
                      chunks: (chunk) => SIGNED_IN_CHUNKS.includes(chunk.name),
                      minChunks: 2,
                      priority: 10,
                      reuseExistingChunk: true,
                    },
                  },
                },
              }
            : { splitChunks: false }),
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
