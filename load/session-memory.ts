#!/usr/bin/env tsx
// Gateway memory per thousand active sessions: the sessions live in the database; what the gateway
// holds per active session is its cache entry (gateway/src/session/cache.ts). This fills the real
// cache, backed by the real session store, with N sessions and reports the heap growth.
// Usage: node --expose-gc --import tsx load/session-memory.ts [N=5000]   (needs `make infra`)
import { randomBytes } from 'node:crypto';
import { cachedSessionStore } from '../gateway/src/session/cache';
import { mongoSessionStore, type SessionDoc } from '../gateway/src/session/store';

const N = Number(process.argv[2] ?? 5000);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

const token = () => randomBytes(600).toString('base64url'); // Keycloak JWTs are ~800-1200 characters
const db = `qm_bench_sessions_${randomBytes(4).toString('hex')}`;
const backing = mongoSessionStore({ url: process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017', db });
const cache = cachedSessionStore(backing, { ttlMs: 600_000, maxEntries: 50_000 });

async function main() {
  await backing.get('warm-up');
  gc!();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < N; i++) {
    const doc: SessionDoc = {
      _id: randomBytes(32).toString('base64url'),
      userId: i + 1,
      username: `user_${i}`,
      roles: ['Army'],
      clientId: 'qm-identity',
      accessToken: token(),
      refreshToken: token(),
      accessExpiresAt: new Date(Date.now() + 300_000),
      refreshExpiresAt: new Date(Date.now() + 1_800_000),
      expiresAt: new Date(Date.now() + 36_000_000),
      createdAt: new Date(),
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0',
    };
    await cache.insert(doc);
  }
  gc!();
  const perThousand = ((process.memoryUsage().heapUsed - before) / N) * 1000;
  console.log(
    `session-memory: ${N} cached sessions, ${(perThousand / 1024 / 1024).toFixed(2)} MiB of heap per 1000`,
  );
  await backing.sweep(new Date(Date.now() + 100 * 36_000_000));
  await backing.close();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
