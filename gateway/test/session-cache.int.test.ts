import { windowOf } from '@qm/platform';
import { INFRA, uniqueName } from '@qm/testkit';
import { cachedSessionStore } from '../src/session/cache';
import { mongoSessionStore, SESSION_WINDOW_MS, type SessionDoc } from '../src/session/store';

const { MONGO_URL } = INFRA;

const session = (key: string): SessionDoc => ({
  _id: key,
  userId: 1,
  username: 'sepoy',
  roles: ['Army'],
  clientId: 'qm-identity',
  accessToken: 'a',
  refreshToken: 'r',
  accessExpiresAt: new Date(Date.now() + 60_000),
  refreshExpiresAt: new Date(Date.now() + 600_000),
  expiresAt: new Date(Date.now() + 3_600_000),
  createdAt: new Date(),
  userAgent: 'jest',
});

describe('session cache in front of the real session store', () => {
  const db = uniqueName('qm_test_sessions');
  const backing = mongoSessionStore({ url: MONGO_URL, db });
  // Two gateway replicas sharing one database, each with its own cache.
  const replicaA = cachedSessionStore(backing, { ttlMs: 300, maxEntries: 2 });
  const replicaB = cachedSessionStore(mongoSessionStore({ url: MONGO_URL, db }), {
    ttlMs: 300,
    maxEntries: 100,
  });

  afterAll(async () => {
    await backing.sweep(new Date(Date.now() + 10 * 3_600_000));
    await backing.close();
    await replicaB.close();
  });

  it('serves repeated reads from memory and sees its own changes at once', async () => {
    await replicaA.insert(session('k1'));
    expect((await replicaA.get('k1'))?.username).toBe('sepoy');
    await replicaA.update('k1', { username: 'havildar' });
    expect((await replicaA.get('k1'))?.username).toBe('havildar');
    expect(await replicaA.remove('k1')).not.toBeNull();
    expect(await replicaA.get('k1')).toBeNull();
  });

  it('lets a session ended on another replica lapse within the TTL', async () => {
    await replicaB.insert(session('k2'));
    expect(await replicaA.get('k2')).not.toBeNull();
    await replicaB.remove('k2');
    expect(await replicaA.get('k2')).not.toBeNull(); // still cached here
    await new Promise((r) => setTimeout(r, 350));
    expect(await replicaA.get('k2')).toBeNull();
  });

  it('does not keep a read that raced with a write', async () => {
    // The same real store, with reads that take a while, as under load.
    const slowReads: typeof backing = {
      ...backing,
      get: async (key) => {
        const doc = await backing.get(key);
        await new Promise((r) => setTimeout(r, 100));
        return doc;
      },
    };
    const replica = cachedSessionStore(slowReads, { ttlMs: 60_000, maxEntries: 100 });
    await backing.insert(session('k6'));
    const racing = replica.get('k6'); // reads the old username, slowly
    await new Promise((r) => setTimeout(r, 20));
    await replica.update('k6', { username: 'subedar' });
    expect((await racing)?.username).toBe('sepoy');
    expect((await replica.get('k6'))?.username).toBe('subedar');
  });

  it("drops and refuses a user's sessions from before a password change, on every replica that hears of it", async () => {
    const replica = cachedSessionStore(backing, { ttlMs: 60_000, maxEntries: 100 });
    const old = { ...session('k7'), userId: 7, createdAt: new Date(Date.now() - 60_000) };
    const other = { ...session('k8'), userId: 8, createdAt: old.createdAt };
    await backing.insert(old);
    await backing.insert(other);
    expect(await replica.get('k7')).not.toBeNull(); // cached for a minute
    replica.forgetUser(7, new Date(Date.now() - 1000));
    expect(await replica.get('k7')).toBeNull();
    expect(await backing.get('k7')).not.toBeNull(); // still in the store: refused, not re-cached
    expect(await replica.get('k7')).toBeNull();
    expect(await replica.get('k8')).not.toBeNull(); // another user's session is untouched
    await replica.insert({ ...session('k9'), userId: 7 }); // signed in again after the change
    expect(await replica.get('k9')).not.toBeNull();
    // The store's own purge takes the old one, and only it.
    expect(await replica.removeUser(7, new Date(Date.now() - 1000))).toBe(1);
    expect(await backing.get('k9')).not.toBeNull();
  });

  it('stays bounded', async () => {
    for (const k of ['k3', 'k4', 'k5']) await replicaA.insert(session(k));
    await backing.remove('k3'); // behind the cache's back: only visible once k3 was evicted
    expect(await replicaA.get('k3')).toBeNull();
  });
});

describe('the session sweep (docs/adr/042)', () => {
  const store = mongoSessionStore({ url: MONGO_URL, db: uniqueName('qm_test_session_sweep') });
  afterAll(() => store.close());
  const at = (ms: number) => new Date(Date.now() + ms);

  it('catches up once, then deletes a window of endings once it ended; a refresh moves its session on', async () => {
    await store.insert({ ...session('ended'), refreshExpiresAt: at(-1_000) });
    expect(await store.sweep(new Date())).toBe(1);
    const soon = { ...session('soon'), refreshExpiresAt: at(30_000) };
    await store.insert(soon);
    await store.insert({ ...session('refreshed'), refreshExpiresAt: at(30_000) });
    await store.update('refreshed', { refreshExpiresAt: at(600_000) });
    // Past its limit but filed under a window already swept (as a writer whose clock is behind
    // would file it): the windows do not read it; the next catch-up does.
    await store.insert({ ...session('late'), refreshExpiresAt: at(-120_000) });
    await store.sweep(new Date((windowOf(soon.refreshExpiresAt, SESSION_WINDOW_MS) + 1) * SESSION_WINDOW_MS));
    expect(await store.get('soon')).toBeNull();
    expect(await store.get('refreshed')).not.toBeNull();
    expect(await store.get('late')).not.toBeNull();
    await store.sweep(at(2 * 3_600_000));
    expect(await store.get('late')).toBeNull();
    expect(await store.get('refreshed')).toBeNull();
  });
});
