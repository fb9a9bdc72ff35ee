import type { ModuleFederation } from '@module-federation/runtime';
import { federation } from './federation';

/** The remotes, served by the gateway at /remotes/<name>/ (docs/CONVENTIONS.md). */
export const REMOTES = ['market', 'wallet', 'admin'] as const;
export type RemoteName = (typeof REMOTES)[number];

export const REMOTE_LABELS: Record<RemoteName, string> = {
  market: 'Market',
  wallet: 'Wallet',
  admin: 'Admin',
};

/** How long a remote may take (manifest + entry + module) before we call it failed. */
const LOAD_TIMEOUT_MS = 20_000;

const attempts = new Map<RemoteName, number>();
/** Remotes to register again (with a fresh manifest URL) before their next load; see {@link resetRemote}. */
const stale = new Set<RemoteName>();
let registered = false;

export function manifestUrl(remote: RemoteName, attempt = 0): string {
  const url = new URL(`/remotes/${remote}/mf-manifest.json`, window.location.origin);
  if (attempt > 0) url.searchParams.set('retry', String(attempt));
  return url.href;
}

/**
 * The runtime, with every remote registered and the ones reset since the last load registered afresh;
 * `remote` is the one about to load (the first one decides what is fetched ahead, federation.ts).
 */
async function runtime(remote: RemoteName): Promise<ModuleFederation> {
  const mf = await federation(remote);
  if (!registered) {
    mf.registerRemotes(REMOTES.map((name) => ({ name, entry: manifestUrl(name) })));
    registered = true;
  }
  for (const remote of stale) {
    // force drops the runtime's module cache and snapshot of the remote.
    mf.registerRemotes([{ name: remote, entry: manifestUrl(remote, attempts.get(remote)) }], {
      force: true,
    });
  }
  stale.clear();
  return mf;
}

/**
 * Marks a promise the way React's `use()` reads it (status/value/reason), so a module that has already
 * loaded renders synchronously on the next mount instead of suspending again.
 */
function track<T>(promise: Promise<T>): Promise<T> {
  const tracked = promise as Promise<T> & { status?: string; value?: T; reason?: unknown };
  tracked.status = 'pending';
  tracked.then(
    (value) => {
      tracked.status = 'fulfilled';
      tracked.value = value;
    },
    (reason: unknown) => {
      tracked.status = 'rejected';
      tracked.reason = reason;
    },
  );
  return tracked;
}

export class RemoteLoadError extends Error {
  readonly remote: RemoteName;

  constructor(remote: RemoteName, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RemoteLoadError';
    this.remote = remote;
  }
}

function withTimeout<T>(promise: Promise<T>, remote: RemoteName, id: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new RemoteLoadError(remote, `Timed out loading ${id} after ${LOAD_TIMEOUT_MS / 1000} s`)),
      LOAD_TIMEOUT_MS,
    );
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

const modules = new Map<string, Promise<unknown>>();

/**
 * Loads `<remote>/<expose>` through the Module Federation runtime, once; the same promise is returned until
 * {@link resetRemote} is called, so React can suspend on it.
 */
export function loadRemoteModule<T>(remote: RemoteName, expose: string): Promise<T> {
  const id = `${remote}/${expose}`;
  let promise = modules.get(id) as Promise<T> | undefined;
  if (!promise) {
    const load = runtime(remote)
      .then((mf) => mf.loadRemote<T>(id))
      .then(
        (mod) => {
          if (mod === null || mod === undefined)
            throw new RemoteLoadError(remote, `${id} did not return a module`);
          return mod;
        },
        (error: unknown) => {
          const detail = error instanceof Error ? error.message : String(error);
          throw new RemoteLoadError(remote, detail, { cause: error });
        },
      );
    promise = track(withTimeout(load, remote, id));
    modules.set(id, promise);
  }
  return promise;
}

type LoadingMap = Record<string, unknown>;

/**
 * Forget everything known about a remote so the next {@link loadRemoteModule} really goes to the network:
 * our module promises, the runtime's cached remote-entry promise (it keeps rejected ones), and the
 * registration itself (registered again with `force` before the next load, with a cache-busting manifest
 * URL so neither the runtime nor the HTTP cache can answer).
 */
export function resetRemote(remote: RemoteName): void {
  attempts.set(remote, (attempts.get(remote) ?? 0) + 1);
  stale.add(remote);

  for (const id of [...modules.keys()]) {
    if (id.startsWith(`${remote}/`)) modules.delete(id);
  }

  const loading = (globalThis as { __GLOBAL_LOADING_REMOTE_ENTRY__?: LoadingMap })
    .__GLOBAL_LOADING_REMOTE_ENTRY__;
  if (loading) {
    for (const key of Object.keys(loading)) {
      if (key.startsWith(`${remote}:`) || key.includes(`/remotes/${remote}/`)) delete loading[key];
    }
  }
}
