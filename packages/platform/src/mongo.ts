import mongoose, { type Connection, type Model, type Schema } from 'mongoose';
import { applyMongoSocketFix } from './store/engine/driver-fix';

// Queries must name their fields; refusing unknown ones keeps stray input out of the database.
mongoose.set('strictQuery', true);
// Mongoose otherwise captures a stack trace on every query (only to explain a query run twice); under
// tsx every trace is source-mapped, which cost identity ~5 % of its CPU per read (load/cpu-profile.mjs).
mongoose.set('skipOriginalStackTraces', true);

/**
 * One database per service (docs/architecture.md §3). Resolves once the server answered a ping.
 *
 * Single-document conditional updates are atomic with any number of connections, on every store
 * engine (docs/adr/008, 024). maxPoolSize comes from MONGO_MAX_POOL_SIZE.
 */
/** Enough for a service's concurrent requests on a 2-core machine without crowding the database. */
export const DEFAULT_POOL_SIZE = 10;

export async function connectMongo(
  url: string,
  dbName: string,
  { maxPoolSize = DEFAULT_POOL_SIZE } = {},
): Promise<Connection> {
  // Without it a database restart can leave the client failing until the process restarts (ADR 015).
  applyMongoSocketFix();
  const conn = mongoose.createConnection(url, {
    dbName,
    maxPoolSize,
    serverSelectionTimeoutMS: 5000,
    // Not every engine we run on has retryable writes (docs/adr/024); services retry themselves.
    retryWrites: false,
    autoIndex: true,
  });
  await conn.asPromise();
  await conn.db!.admin().ping();
  return conn;
}

export function isDuplicateKeyError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 11000;
}

/** A bulk insert (ordered: false) that failed only on unique keys already taken (each write error a duplicate). */
export function onlyDuplicateKeyErrors(err: unknown): boolean {
  const writeErrors = (err as { writeErrors?: unknown } | null)?.writeErrors;
  if (Array.isArray(writeErrors) && writeErrors.length)
    return writeErrors.every(
      (e: { code?: unknown; err?: { code?: unknown } }) => (e.code ?? e.err?.code) === 11000,
    );
  return isDuplicateKeyError(err);
}

/** The top-level fields a schema names, once per schema. */
const schemaFields = new WeakMap<Schema, Set<string>>();
function fieldsOf(schema: Schema): Set<string> {
  let fields = schemaFields.get(schema);
  if (!fields) {
    fields = new Set(Object.keys(schema.paths).map((p) => p.split('.')[0]!));
    schemaFields.set(schema, fields);
  }
  return fields;
}

/**
 * Inserts documents our code built whole, typed as their schema: given the schema's defaults and
 * only the top-level fields it names, as `Model.create` stores them, but without hydrating a
 * mongoose document for each and validating it, which cost about as much as the insert's round trip
 * (docs/adr/047). The TypeScript type stands in for validation, so input from outside is checked
 * before it gets here. Answers the documents as stored (an `_id` the driver gave included).
 * Duplicate keys fail as `create` and `insertMany` fail (isDuplicateKeyError, onlyDuplicateKeyErrors).
 */
export async function insertBuilt<T extends object>(
  model: Model<T>,
  docs: T[],
  { ordered = true }: { ordered?: boolean } = {},
): Promise<T[]> {
  // Timestamps would need what `create` sets for them; no schema of ours has them.
  if (model.schema.options.timestamps)
    throw new Error(`insertBuilt: ${model.modelName} has timestamps; use create`);
  const { versionKey } = model.schema.options;
  const fields = fieldsOf(model.schema);
  const stored = docs.map((doc) => {
    const kept: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(doc)) if (fields.has(field)) kept[field] = value;
    if (typeof versionKey === 'string') kept[versionKey] = 0;
    return model.applyDefaults(kept) as T;
  });
  // Straight to the driver's collection: `insertMany` with `lean` still queues each document through
  // a timer turn of its own before the driver sees it (docs/adr/051). A field set to undefined is
  // left out, as `create` leaves it out, not stored as null.
  await model.collection.insertMany(stored as never[], { ordered, ignoreUndefined: true });
  return stored;
}

/** The path of a value left undefined in a filter, if any (plain objects and arrays looked into). */
function undefinedIn(value: unknown, path: string): string | undefined {
  if (value === undefined) return path;
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) {
      const found = undefinedIn(v, `${path}.${i}`);
      if (found) return found;
    }
  } else if (value !== null && Object.getPrototypeOf(value) === Object.prototype)
    for (const [k, v] of Object.entries(value)) {
      const found = undefinedIn(v, path ? `${path}.${k}` : k);
      if (found) return found;
    }
  return undefined;
}

/**
 * Applies a change our code built, typed, to the one document `filter` matches, straight on the
 * model's driver collection (docs/adr/051): no query cast through the schema, which added
 * 0.17–0.24 ms of client CPU to each `findOneAndUpdate` (`npm run bench:mongoose`). Answers the
 * document as it is after the change, or null when none matched (a compare-and-set that lost). A
 * field of the change set to undefined is left out, as mongoose leaves it out, not stored as null. A
 * filter naming a field with no value is refused: the driver would leave that condition out and
 * widen a compare-and-set, where mongoose would have asked for null.
 */
export async function changeBuilt<T extends object>(
  model: Model<T>,
  filter: Record<string, unknown>,
  update: Record<string, unknown>,
): Promise<T | null> {
  const unset = undefinedIn(filter, '');
  if (unset) throw new Error(`changeBuilt: ${model.modelName}'s filter leaves ${unset} undefined`);
  return (await model.collection.findOneAndUpdate(filter as never, update, {
    returnDocument: 'after',
    ignoreUndefined: true,
  })) as T | null;
}
