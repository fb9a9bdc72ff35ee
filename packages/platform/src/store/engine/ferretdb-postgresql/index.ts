import type { Connection } from 'mongoose';
import type { StoreEngine } from '../types';
import { analyzeCollection, dropOwnIndexes, ensureGinIndexes } from './indexes';
import { postgresCount, postgresSum, postgresOrderedPage } from './ordered';
import { postgresTextSearch } from './search';
import { postgresSequences } from './sequences';
import { lazyPool, tableNames } from './sql';

/**
 * The `ferretdb-postgresql` engine: the local stack's FerretDB v1 on PostgreSQL 15, with the
 * shortcuts measured there (docs/adr/004, 011, 013, 020). Writes of documents always go through
 * FerretDB; PostgreSQL is read directly, and written only for its own indexes and the counters.
 */
export interface FerretdbPostgresqlOptions {
  /** Text search: below this many matches a text is read through its trigram index (tests lower it). */
  textRareBelow?: number;
}

export function ferretdbPostgresqlEngine(
  conn: Connection,
  url: string,
  { textRareBelow }: FerretdbPostgresqlOptions = {},
): StoreEngine {
  // Separate pools, so that a slow admin read never queues a counter step behind it.
  const counters = lazyPool(url, 4);
  const reads = lazyPool(url, 4);
  const setup = lazyPool(url, 1);
  const sequences = postgresSequences(conn, counters.get);
  const tableOf = tableNames(reads.get);
  return {
    name: 'ferretdb-postgresql',
    sequences,
    serveIndexes: (collection, fields) => ensureGinIndexes(setup.get(), conn.name, collection, fields),
    orderedPage: async (model, q) =>
      postgresOrderedPage(
        reads.get(),
        await tableOf(model.db.name, model.collection.collectionName),
        model,
        q,
      ),
    countEqual: async (model, equals) =>
      postgresCount(reads.get(), await tableOf(model.db.name, model.collection.collectionName), equals),
    sumEqual: async (model, equals, field) =>
      postgresSum(reads.get(), await tableOf(model.db.name, model.collection.collectionName), equals, field),
    textSearch: (spec) => postgresTextSearch(conn, reads.get(), spec, { rareBelow: textRareBelow }),
    beginBulkLoad: (collection) => dropOwnIndexes(setup.get(), conn.name, collection),
    endBulkLoad: (collection) => analyzeCollection(setup.get(), conn.name, collection),
    async close() {
      await Promise.all([counters.close(), reads.close(), setup.close()]);
    },
  };
}
