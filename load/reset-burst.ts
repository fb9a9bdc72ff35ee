#!/usr/bin/env tsx
// A bystander's latency while a burst of reset-code guesses hits identity. Starts
// the real identity service and gateway in-process (they share one libuv pool, so this is harsher
// than separate pods), sends N wrong guesses at one account's reset code at once, and meanwhile
// has another user sign in and read /api/user over and over.
// `pool` instead measures the slow hash alone, without infrastructure: N scrypt hashes at once, as
// before (straight onto libuv's pool) and through @qm/platform `slowHash` (at most 2 at a time),
// while a bystander's dns.lookup, which needs a pool thread like file and DNS work of any request
// (e.g. resolving Keycloak's host name), waits its turn.
// Usage: node --import tsx load/reset-burst.ts [N=120] [pool]   (without `pool`: needs `make infra`)
import { lookup } from 'node:dns/promises';
import { scrypt } from 'node:crypto';
import { slowHash } from '@qm/platform';
import { Browser, registerUser, startIdentityStack } from '@qm/testkit/src/identity-stack';
import { ADMIN_PASSWORD } from '@qm/testkit/src/keycloak';
import { deleteMailsTo } from '@qm/testkit/src/maildev';

const N = Number(process.argv[2] ?? 120);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const summary = (xs: number[]) =>
  `n=${xs.length} p50=${pct(xs, 50).toFixed(0)} ms p95=${pct(xs, 95).toFixed(0)} ms max=${Math.max(...xs).toFixed(0)} ms`;

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const out = await fn();
  return [out, performance.now() - t];
}

/** Sign-in and GET /api/user, one after the other, until `stop` says so. */
async function bystander(url: string, u: { username: string; password: string }, stop: () => boolean) {
  const signIns: number[] = [];
  const reads: number[] = [];
  do {
    const b = new Browser(url);
    const [login, ms] = await timed(() => b.login(u.username, u.password));
    if (login.status !== 200) throw new Error(`bystander sign-in failed: ${login.status}`);
    signIns.push(ms);
    const [read, readMs] = await timed(() => b.get('/api/user'));
    if (read.status !== 200) throw new Error(`bystander read failed: ${read.status}`);
    reads.push(readMs);
  } while (!stop());
  return { signIns, reads };
}

/** The hash as it was before the limit: every call straight onto the pool. */
const unboundedHash = (secret: string, salt: string) =>
  new Promise<string>((resolve, reject) =>
    scrypt(secret, salt, 32, { N: 16384, r: 8, p: 1 }, (err, key) =>
      err ? reject(err) : resolve(key.toString('base64url')),
    ),
  );

async function poolOnly() {
  for (const [name, hash] of [
    ['unbounded scrypt (before)', unboundedHash],
    ['slowHash, 2 at a time (after)', slowHash],
  ] as const) {
    await hash('warm', 'up');
    const lookups: number[] = [];
    let done = false;
    const burst = timed(() => Promise.all(Array.from({ length: N }, (_, i) => hash(String(i), 'salt')))).then(
      (r) => ((done = true), r),
    );
    while (!done) lookups.push((await timed(() => lookup('localhost')))[1]);
    const [, ms] = await burst;
    console.log(`${name}: ${N} hashes in ${ms.toFixed(0)} ms; bystander dns.lookup ${summary(lookups)}`);
  }
}

async function main() {
  if (process.argv[3] === 'pool') return poolOnly();
  const stack = await startIdentityStack({ gateway: { AUTH_RATE_LIMIT_SCALE: '1000' } });
  const admin = new Browser(stack.url);
  await admin.login('admin', ADMIN_PASSWORD, 'admin');
  const victim = await registerUser(stack, 'BurstVictim', 'Army', admin);
  const other = await registerUser(stack, 'BurstBystander', 'Army', admin);
  try {
    // Quiet baseline.
    let n = 0;
    const quiet = await bystander(stack.url, other, () => ++n >= 10);

    const anon = new Browser(stack.url);
    await anon.post('/api/request-password-reset', { emailOrUsername: victim.username });
    let done = false;
    const during = bystander(stack.url, other, () => done);
    const [answers, burstMs] = await timed(() =>
      Promise.all(
        Array.from({ length: N }, (_, i) =>
          new Browser(stack.url).post('/api/verify-password-reset-otp', {
            emailOrUsername: victim.username,
            otp: String(100000 + i),
          }),
        ),
      ),
    );
    done = true;
    const busy = await during;
    const byStatus = answers.reduce<Record<number, number>>(
      (acc, a) => ({ ...acc, [a.status]: (acc[a.status] ?? 0) + 1 }),
      {},
    );
    console.log(
      `burst of ${N} guesses: ${burstMs.toFixed(0)} ms, answers by status ${JSON.stringify(byStatus)}`,
    );
    console.log(`bystander sign-in, quiet:  ${summary(quiet.signIns)}`);
    console.log(`bystander sign-in, burst:  ${summary(busy.signIns)}`);
    console.log(`bystander /api/user, quiet: ${summary(quiet.reads)}`);
    console.log(`bystander /api/user, burst: ${summary(busy.reads)}`);
  } finally {
    await deleteMailsTo([victim.email, other.email]).catch(() => undefined);
    await stack.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
