import mongoose, { type Connection } from 'mongoose';

// Queries must name their fields; refusing unknown ones keeps stray input out of the database.
mongoose.set('strictQuery', true);

/**
 * One database per service (ARCHITECTURE §3). Resolves once the server answered a ping.
 *
 * maxPoolSize defaults to 1: FerretDB v1 runs every update as a query followed by a write with
 * nothing holding them together, so two concurrent `$inc`s on one document lose one. One
 * connection per service serializes that service's commands and keeps single-document
 * conditional updates atomic (docs/adr/002). Against real MongoDB raise it with MONGO_MAX_POOL_SIZE.
 */
export async function connectMongo(
  url: string,
  dbName: string,
  { maxPoolSize = 1 } = {},
): Promise<Connection> {
  const conn = mongoose.createConnection(url, {
    dbName,
    maxPoolSize,
    serverSelectionTimeoutMS: 5000,
    // FerretDB v1 has no multi-document transactions nor retryable writes sessions.
    retryWrites: false,
    autoIndex: true,
  });
  await conn.asPromise();
  await conn.db!.admin().ping();
  return conn;
}

interface CounterDoc {
  _id: string;
  seq: number;
}

/**
 * Numeric, user-visible ids ("Order #42") from a per-collection sequence: one atomic $inc on a
 * counter document, so concurrent inserts never share an id.
 */
export async function nextSequence(conn: Connection, name: string): Promise<number> {
  const counters = conn.collection<CounterDoc>('counters');
  for (let attempt = 0; ; attempt++) {
    try {
      const doc = await counters.findOneAndUpdate(
        { _id: name },
        { $inc: { seq: 1 } },
        { upsert: true, returnDocument: 'after' },
      );
      if (!doc) throw new Error(`sequence ${name} did not return a value`);
      return doc.seq;
    } catch (err) {
      // Two first-ever upserts race on inserting the counter; the loser retries as an update.
      if (!isDuplicateKeyError(err) || attempt >= 5) throw err;
    }
  }
}

export function isDuplicateKeyError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 11000;
}
