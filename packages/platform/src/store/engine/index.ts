import type { Connection, Model } from 'mongoose';
import { type StoreEngineChoice } from './choose';
import { type FerretdbPostgresqlOptions, ferretdbPostgresqlEngine } from './ferretdb-postgresql';
import { mongodbEngine, plainOrderedPage } from './mongodb';
import type { OrderedPageQuery, Scalar, Sequences, StoreEngine } from './types';

/**
 * The one place that knows which database engine a service's data lives on (docs/adr/024).
 * Services use the MongoDB API (mongoose, the mongodb driver) and, where the engines differ, the
 * capabilities of StoreEngine, through the functions below or `rt.engine`.
 */
export type {
  OrderedPageQuery,
  Scalar,
  SearchFieldType,
  SequenceStep,
  Sequences,
  StoreEngine,
  StoreEngineName,
  TextSearch,
  TextSearchQuery,
  TextSearchSpec,
} from './types';
export {
  chooseStoreEngine,
  LOCAL_POSTGRESQL_URL,
  type StoreEngineChoice,
  StoreEngineConfigError,
  storeEngineEnv,
  storeEngineOfStack,
  storeEngineVariables,
} from './choose';

const attached = new WeakMap<Connection, StoreEngine>();

/** The local engine's thresholds, which tests lower to take each of its ways on little data. */
export type StoreEngineTuning = FerretdbPostgresqlOptions;

/**
 * The chosen engine for `conn`'s database, not attached to it: engineOf(conn) stays as it is. For
 * tests that compare the engines on the database of a running service; close() it after.
 */
export function detachedStoreEngine(
  conn: Connection,
  choice: StoreEngineChoice,
  tuning: StoreEngineTuning = {},
): StoreEngine {
  return choice.engine === 'ferretdb-postgresql'
    ? ferretdbPostgresqlEngine(conn, choice.postgresqlUrl!, tuning)
    : mongodbEngine(conn);
}

/**
 * Opens the chosen engine for `conn`'s database and attaches it to the connection, so that
 * engineOf(conn) (counters, feeds, indexes, ordered pages) uses it from now on. startService and
 * the gateway call it once at start; so must any other process that takes or sets the counters of
 * a running stack (the loaders under load/). close() detaches it.
 */
export async function openStoreEngine(conn: Connection, choice: StoreEngineChoice): Promise<StoreEngine> {
  const engine = detachedStoreEngine(conn, choice);
  attached.set(conn, engine);
  return {
    ...engine,
    async close() {
      if (attached.get(conn) === engine) attached.delete(conn);
      await engine.close();
    },
  };
}

/** The engine attached to `conn` (openStoreEngine); the MongoDB API alone when none is. */
export function engineOf(conn: Connection): StoreEngine {
  let engine = attached.get(conn);
  if (!engine) {
    engine = mongodbEngine(conn);
    attached.set(conn, engine);
  }
  return engine;
}

/** The counters of `conn`'s database. */
export const sequencesOf = (conn: Connection): Sequences => engineOf(conn).sequences;

/**
 * Numeric, user-visible ids ("Order #42") from a per-collection sequence: concurrent inserts never
 * share an id. With `count`, takes that many consecutive numbers at once and answers the last.
 */
export const nextSequence = (conn: Connection, name: string, count = 1): Promise<number> =>
  sequencesOf(conn).next(name, count);

/**
 * One page of `model`'s documents in `q`'s order (an administrator's sorted list), and how many
 * match: the declared compound index serves it on every engine (docs/adr/013).
 */
export const orderedPage = <T extends { _id: string | number }>(
  model: Model<T>,
  q: OrderedPageQuery,
): Promise<{ items: T[]; total: number }> => engineOf(model.db).orderedPage(model, q);

/**
 * The same page through the MongoDB API alone (`find().sort().skip().limit()`, `countDocuments`),
 * whatever the engine: for a set known to be small (one user's lines), where the plain query is
 * cheapest everywhere.
 */
export const queryPage = plainOrderedPage;

/** How many of `model`'s documents have these top-level values, counted by index on every engine. */
export const countEqual = <T>(model: Model<T>, equals: Record<string, Scalar>): Promise<number> =>
  engineOf(model.db).countEqual(model, equals);

/** The sum of `field` over `model`'s documents with these top-level values, added up by the database. */
export const sumEqual = <T>(
  model: Model<T>,
  equals: Record<string, Scalar>,
  field: string,
): Promise<number> => engineOf(model.db).sumEqual(model, equals, field);

/**
 * Collections @qm/platform itself keeps in every service database (sequences, consumers, outbox,
 * idempotency keys), with their indexes besides `_id`. They have no mongoose model, so they are
 * listed here.
 */
const PLATFORM_COLLECTIONS: Record<string, Record<string, 1 | -1>[]> = {
  counters: [],
  processed_events: [],
  outbox: [],
  // Their sweep asks for the keys that expired by their window (idempotency.ts).
  idempotency_keys: [{ expiresWindow: 1 }],
};

async function createCollection(conn: Connection, name: string): Promise<void> {
  await conn.createCollection(name).catch((err: unknown) => {
    if ((err as { codeName?: string }).codeName !== 'NamespaceExists') throw err;
  });
}

/**
 * The one way a service declares its indexes: on its mongoose schemas (`schema.index(...)`). This
 * creates them for every model of the connection, and the platform's own collections, and has the
 * engine serve them (docs/adr/004). startService calls it once the service's setup has registered
 * its models.
 */
export async function ensureIndexes(conn: Connection): Promise<void> {
  const engine = engineOf(conn);
  for (const [name, indexes] of Object.entries(PLATFORM_COLLECTIONS))
    await ensureCollectionIndexes(conn, name, indexes);
  for (const model of Object.values(conn.models)) {
    await createCollection(conn, model.collection.collectionName);
    await model.createIndexes();
    const fields = model.schema.indexes().flatMap(([keys]) => Object.keys(keys));
    await engine.serveIndexes(model.collection.collectionName, fields);
  }
}

/** Creates `indexes` of a collection that has no mongoose model, and has the engine serve them. */
export async function ensureCollectionIndexes(
  conn: Connection,
  collection: string,
  indexes: Record<string, 1 | -1>[],
): Promise<void> {
  await createCollection(conn, collection);
  for (const keys of indexes) await conn.collection(collection).createIndex(keys);
  await engineOf(conn).serveIndexes(
    collection,
    indexes.flatMap((keys) => Object.keys(keys)),
  );
}

export { applyMongoSocketFix } from './driver-fix';
