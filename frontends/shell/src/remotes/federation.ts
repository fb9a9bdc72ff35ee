import type { createInstance, ModuleFederation } from '@module-federation/runtime';
import type { RemoteName } from './registry';

type UserOptions = Parameters<typeof createInstance>[0];

/** Package → its installed version and the range the shell asks for (rspack.shared.mjs, hostShared). */
declare const __QM_SHARED__: Record<string, { version: string; requiredVersion: string | false }>;

type SharedName =
  | 'react'
  | 'react/jsx-runtime'
  | 'react/jsx-dev-runtime'
  | 'react-dom'
  | 'react-dom/client'
  | 'react-router'
  | 'react-router-dom'
  | '@tanstack/react-query'
  | '@mantine/core'
  | '@mantine/hooks'
  | '@mantine/notifications'
  | '@mantine/modals'
  | '@qm/ui'
  | '@qm/contracts/rest';

/**
 * Each shared module from the shell's own build: the very instances its pages already run (one React,
 * one router context, one QueryClient context). React Router, Mantine's core and hooks, React Query,
 * @qm/ui and @qm/contracts/rest are the names the remotes import (`qm-shared/*`,
 * frontends/shared-exports.mjs), React Router the same module for both of its package names; the others
 * are whole packages. The shell's pages keep importing only what they use.
 *
 * All but the schemas are built into one chunk, "qm-shared" (SHARED_CHUNK of frontends/rspack.shared.mjs,
 * which keeps it whole): a remote page fetched them as about twenty chunks, the Mantine components its
 * pages share with the shell's own lazy pages split out of it, each a request and a script to start.
 * The schemas stay a chunk of their own, which the market's and the wallet's first pages do not fetch.
 * In the order they are warmed: the first fetches the chunk; React and React DOM are the shell's own.
 */
const PROVIDERS: Record<SharedName, () => Promise<unknown>> = {
  '@mantine/hooks': () => import(/* webpackChunkName: "qm-shared" */ 'qm-shared/@mantine/hooks'),
  '@mantine/core': () => import(/* webpackChunkName: "qm-shared" */ 'qm-shared/@mantine/core'),
  '@mantine/notifications': () => import(/* webpackChunkName: "qm-shared" */ '@mantine/notifications'),
  '@mantine/modals': () => import(/* webpackChunkName: "qm-shared" */ '@mantine/modals'),
  '@tanstack/react-query': () =>
    import(/* webpackChunkName: "qm-shared" */ 'qm-shared/@tanstack/react-query'),
  'react-router': () => import(/* webpackChunkName: "qm-shared" */ 'qm-shared/react-router-dom'),
  'react-router-dom': () => import(/* webpackChunkName: "qm-shared" */ 'qm-shared/react-router-dom'),
  '@qm/ui': () => import(/* webpackChunkName: "qm-shared" */ 'qm-shared/@qm/ui'),
  react: () => import(/* webpackChunkName: "qm-shared" */ 'react'),
  'react/jsx-runtime': () => import(/* webpackChunkName: "qm-shared" */ 'react/jsx-runtime'),
  'react/jsx-dev-runtime': () => import(/* webpackChunkName: "qm-shared" */ 'react/jsx-dev-runtime'),
  'react-dom': () => import(/* webpackChunkName: "qm-shared" */ 'react-dom'),
  'react-dom/client': () => import(/* webpackChunkName: "qm-shared" */ 'react-dom/client'),
  '@qm/contracts/rest': () => import('qm-shared/@qm/contracts/rest'),
};

function sharedOptions(): NonNullable<UserOptions['shared']> {
  return Object.fromEntries(
    Object.entries(PROVIDERS).map(([name, load]) => {
      const { version, requiredVersion } = __QM_SHARED__[name] ?? {};
      if (!version) throw new Error(`no version for the shared module ${name} (rspack.shared.mjs)`);
      return [
        name,
        {
          version,
          shareConfig: { singleton: true, requiredVersion: requiredVersion ?? false },
          get: () => load().then((module) => () => module),
        },
      ];
    }),
  );
}

/**
 * Shared modules a remote's first page does not use, left out of what is fetched ahead. The market's
 * and the wallet's first screens take their rules from @qm/contracts/rules, so the shared schemas and
 * their zod (23 KiB gzip, and 180 ms of evaluation on Lighthouse's phone) wait until a form asks for
 * them (docs/adr/037-first-screens-without-zod.md; test/first-screens.test.ts holds the screens to it).
 */
export const NOT_ON_FIRST_PAGE: Partial<Record<RemoteName, readonly SharedName[]>> = {
  market: ['@qm/contracts/rest'],
  wallet: ['@qm/contracts/rest'],
};

let instance: Promise<ModuleFederation> | undefined;

/** The one shared module built outside the shared chunk: the schemas, and their zod. */
const OWN_CHUNK: SharedName = '@qm/contracts/rest';

/**
 * A remote page consumes the shared modules, and the runtime asks for them one after another as the
 * remote's chunks need them: four round trips of chunks before a page could render. Fetching them side
 * by side with the runtime leaves one: all of them, but those the first remote's first page does not
 * use. A failed fetch is retried by the import that needs it.
 *
 * The first of the shared chunk's modules fetches it, and each evaluates in a task of its own: in the
 * task the chunk arrived in, all of them held a phone's main thread for 300–450 ms at Lighthouse's
 * slowdown (docs/performance/2026-12-03-shared-chunk-and-formats.md).
 */
export async function warmShared(
  first: RemoteName | undefined,
  providers: Partial<Record<SharedName, () => Promise<unknown>>> = PROVIDERS,
): Promise<void> {
  const skipped = new Set<string>(first ? NOT_ON_FIRST_PAGE[first] : []);
  const wanted = Object.entries(providers).filter(([name]) => !skipped.has(name));
  for (const [name, load] of wanted) if (name === OWN_CHUNK) load().catch(() => undefined);
  for (const [name, load] of wanted) {
    if (name === OWN_CHUNK) continue;
    await load().catch(() => undefined);
    await nextTask();
  }
}

/** Resolves in a task of its own, after whatever the browser has queued (input, paint, network). */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The Module Federation runtime, created the first time a remote is needed (`first`, when known): a
 * visitor's pages never download it (ADR 017). The shell registers its shared modules before any remote
 * entry initialises, and with loaded-first a remote keeps them over its own copies of the same version.
 */
export function federation(first?: RemoteName): Promise<ModuleFederation> {
  if (instance) return instance;
  instance = Promise.all([
    // The ES builds of both, so that they are one runtime core (enhanced/runtime is CommonJS).
    import('@module-federation/runtime'),
    import('@module-federation/runtime-core'),
  ]).then(
    ([{ createInstance }, runtimeCore]) => {
      // Where the remotes' entries find the runtime core (built with experiments.externalRuntime).
      Object.assign(globalThis, { _FEDERATION_RUNTIME_CORE: runtimeCore });
      return createInstance({
        name: 'shell',
        remotes: [],
        shared: sharedOptions(),
        shareStrategy: 'loaded-first',
      });
    },
    (error: unknown) => {
      instance = undefined; // a chunk that failed to load is fetched again on the next try
      throw error;
    },
  );
  void warmShared(first); // after the runtime's own chunk, which the remote's manifest waits for
  return instance;
}
