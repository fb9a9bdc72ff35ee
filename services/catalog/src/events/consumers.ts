import type { BackgroundWork, Logger } from '@qm/platform';
import type { Connection } from 'mongoose';
import type { Catalog } from '../app/catalog';
import { userDeletedConsumer } from './identity';
import type { ReplicaSync } from './replica-sync';

/**
 * Everything the catalog hears, for @qm/platform to register: identity's account deletions (a
 * durable consumer) and, with the in-memory read model, the other replicas' product changes.
 */
export function catalogConsumers(opts: {
  conn: Connection;
  log: Logger;
  catalog: Catalog;
  userDeletedDurable: string;
  sync?: ReplicaSync;
}): BackgroundWork {
  const { conn, log, catalog, sync } = opts;
  return {
    consumers: [
      userDeletedConsumer({
        conn,
        log,
        durable: opts.userDeletedDurable,
        removeProductsOf: (userId) => catalog.removeProductsOf(userId),
      }),
    ],
    listeners: sync ? [sync.listener] : [],
    jobs: sync ? [sync.resync] : [],
  };
}
