#!/usr/bin/env node
// Clears the gateway's rate-limit counters (collection rate_limits of its database): every client's
// budget starts again, on every replica. The counters live in MongoDB, shared by the replicas and kept
// across restarts, so restarting the gateway no longer resets them; this is the deliberate way.
// For test runs that sign up many users from one address (scripts/ci-test.mjs between the browser
// journeys, the chaos run and the API fuzzer), or an operator lifting a lockout. Never needed otherwise.
//
// Usage: node scripts/clear-rate-limits.mjs   (npm run rate-limits:clear)
//   MONGO_URL (default mongodb://127.0.0.1:27017) and MONGO_DB (default qm_gateway): the gateway's.
import { MongoClient } from 'mongodb';

export async function clearRateLimits({
  url = process.env.MONGO_URL || 'mongodb://127.0.0.1:27017',
  db = process.env.MONGO_DB || 'qm_gateway',
} = {}) {
  const client = await MongoClient.connect(url, { serverSelectionTimeoutMS: 5000, retryWrites: false });
  try {
    const { deletedCount } = await client.db(db).collection('rate_limits').deleteMany({});
    return deletedCount;
  } finally {
    await client.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const n = await clearRateLimits();
  console.log(`rate limits cleared: ${n} counter(s) removed`);
}
