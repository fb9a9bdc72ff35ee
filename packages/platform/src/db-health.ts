import { MongoClient } from 'mongodb';
import type { Connection } from 'mongoose';
import type { Logger } from './logger';

export interface DatabaseWatchOptions {
  conn: Connection;
  /** The database's URL, for the fresh connection that tells "database down" from "client stuck". */
  url: string;
  log: Logger;
  /** How often the service's own connection pings the database. */
  everyMs: number;
  /** Failing pings for this long: not ready (readiness NOT_SERVING) until one answers again. */
  unreadyAfterMs: number;
  /** Failing pings for this long while a fresh connection reaches the database: the client is stuck. */
  stuckAfterMs: number;
  setReady(ready: boolean): void;
  /** What to do with a stuck client; a service process exits, so that its supervisor restarts it. */
  onStuck(): void;
}

const within = <T>(p: Promise<T>, ms: number): Promise<T> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
    p.then(resolve, reject).finally(() => clearTimeout(timer));
  });

/** Whether a connection of its own, made now, gets an answer from the database. */
async function reachableAfresh(url: string, timeoutMs: number): Promise<boolean> {
  const client = new MongoClient(url, {
    serverSelectionTimeoutMS: timeoutMs,
    connectTimeoutMS: timeoutMs,
    socketTimeoutMS: timeoutMs,
  });
  try {
    await within(client.db('admin').command({ ping: 1 }), timeoutMs + 1000);
    return true;
  } catch {
    return false;
  } finally {
    await client.close().catch(() => undefined);
  }
}

/**
 * Keeps a service's health honest about its database (docs/adr/015): while the service's own
 * connection cannot ping it for `unreadyAfterMs`, the service is not ready (Kubernetes stops sending
 * it calls, the local stack shows it unhealthy); when the database is up for a fresh connection but
 * not for the service's own for `stuckAfterMs`, restarting is the only cure, and `onStuck` is called.
 * A database that is down for everyone never makes a service restart.
 */
export function watchDatabase(o: DatabaseWatchOptions): { stop(): void } {
  let failingSince: number | undefined;
  let ready = true;
  let running = false;
  let stuck = false;
  const check = async () => {
    const answered = await within(o.conn.db!.admin().ping(), o.everyMs).then(
      () => true,
      (err: unknown) => {
        o.log.debug({ err }, 'database ping failed');
        return false;
      },
    );
    const now = Date.now();
    if (answered) {
      if (!ready) o.log.info({ downMs: now - (failingSince ?? now) }, 'database reachable again: ready');
      failingSince = undefined;
      if (!ready) o.setReady((ready = true));
      return;
    }
    failingSince ??= now;
    const failingMs = now - failingSince;
    if (ready && failingMs >= o.unreadyAfterMs) {
      o.log.error({ failingMs }, 'database unreachable: not ready until it answers');
      o.setReady((ready = false));
    }
    if (!stuck && failingMs >= o.stuckAfterMs && (await reachableAfresh(o.url, Math.min(o.everyMs, 5000)))) {
      stuck = true;
      o.log.fatal({ failingMs }, 'the database answers a new connection but not this service: restarting');
      o.onStuck();
    }
  };
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    check()
      .catch((err: unknown) => o.log.warn({ err }, 'database check failed'))
      .finally(() => {
        running = false;
      });
  }, o.everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
