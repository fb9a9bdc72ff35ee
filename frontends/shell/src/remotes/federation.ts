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
 */
const PROVIDERS: Record<SharedName, () => Promise<unknown>> = {
  react: () => import('react'),
  'react/jsx-runtime': () => import('react/jsx-runtime'),
  'react/jsx-dev-runtime': () => import('react/jsx-dev-runtime'),
  'react-dom': () => import('react-dom'),
  'react-dom/client': () => import('react-dom/client'),
  'react-router': () => import('qm-shared/react-router-dom'),
  'react-router-dom': () => import('qm-shared/react-router-dom'),
  '@tanstack/react-query': () => import('qm-shared/@tanstack/react-query'),
  '@mantine/core': () => import('qm-shared/@mantine/core'),
  '@mantine/hooks': () => import('qm-shared/@mantine/hooks'),
  '@mantine/notifications': () => import('@mantine/notifications'),
  '@mantine/modals': () => import('@mantine/modals'),
  '@qm/ui': () => import('qm-shared/@qm/ui'),
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

/**
 * A remote page consumes the shared modules, and the runtime asks for them one after another as the
 * remote's chunks need them: four round trips of chunks before a page could render. Fetching them side
 * by side with the runtime leaves one: all of them, but those the first remote's first page does not
 * use. A failed fetch is retried by the import that needs it.
 */
function warmShared(first: RemoteName | undefined): void {
  const skipped = new Set<string>(first ? NOT_ON_FIRST_PAGE[first] : []);
  for (const [name, load] of Object.entries(PROVIDERS)) if (!skipped.has(name)) load().catch(() => undefined);
}

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
  warmShared(first); // after the runtime's own chunk, which the remote's manifest waits for
  return instance;
}
