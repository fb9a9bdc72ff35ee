// The later work of money already moved: each transfer leaves a marker on both of its accounts for
// the wallet's MARKER_RETENTION_MS (ADR 006), and the wallet's sweeper clears them afterwards. Reads
// the wallet's database directly (loopback only), by `_id` once the accounts are found, so that the
// polling itself costs two point reads.
import { MongoClient } from 'mongodb';
import { loopbackOnly } from './loopback.cjs';

const MONGO_URL = process.env.MONGO_URL || 'mongodb://127.0.0.1:27017';
const WALLET_DB = process.env.WALLET_DB || 'qm_wallet';
loopbackOnly(MONGO_URL);

/** Waits until the wallets of `usernames` carry no marker, asking first after `firstPollAfterMs`. */
export async function markersCleared(
  usernames,
  { pollMs = 2000, timeoutMs = 600_000, firstPollAfterMs = 0 } = {},
) {
  const client = await MongoClient.connect(MONGO_URL);
  const started = performance.now();
  try {
    const accounts = client.db(WALLET_DB).collection('accounts');
    const ids = [];
    for (const username of usernames)
      ids.push((await accounts.findOne({ username }, { projection: { _id: 1 } }))._id);
    await new Promise((r) => setTimeout(r, Math.max(0, firstPollAfterMs - (performance.now() - started))));
    for (;;) {
      const found = await Promise.all(
        ids.map((_id) => accounts.findOne({ _id }, { projection: { applied: 1 } })),
      );
      if (found.every((a) => a.applied.length === 0)) return;
      if (performance.now() - started > timeoutMs) throw new Error('the markers were not cleared in time');
      await new Promise((r) => setTimeout(r, pollMs));
    }
  } finally {
    await client.close();
  }
}
