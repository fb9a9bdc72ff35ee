import { randomBytes } from 'node:crypto';
import { connectBus, type EventBus, makeEvent } from '@qm/platform';
import { eventually, INFRA, testLog } from '@qm/testkit';
import { startFakeIdentity } from '@qm/testkit/src/fake-identity';
import { IDENTITY_SUBJECTS } from '../src/events';
import { followUserChanges, identityDirectory, type UserDirectory } from '../src/grpc';

/**
 * The users directory the services share (docs/adr/032): a user found is answered from memory until
 * identity announces a change of theirs on the bus (heard by every replica) or the TTL ends.
 * Identity here answers LookupUser from a table and counts the calls; the bus is the real NATS.
 */
jest.setTimeout(30_000);

const token = randomBytes(24).toString('hex');
const table = new Map<number, { username: string; email: string; status: 'approved' | 'rejected' }>();
const asked: string[] = [];
let identity: Awaited<ReturnType<typeof startFakeIdentity>>;
let bus: EventBus;
const directories: UserDirectory[] = [];

beforeAll(async () => {
  identity = await startFakeIdentity({
    internalToken: token,
    find(by) {
      asked.push(`${by?.$case}:${by?.value}`);
      const found = [...table.entries()].find(([id, u]) =>
        by?.$case === 'id'
          ? id === by.value
          : u.username.toLowerCase() === String(by?.value).trim().toLowerCase(),
      );
      return found && { id: found[0], ...found[1] };
    },
  });
  bus = await connectBus({ servers: INFRA.NATS_URL, name: 'user-directory-test', log: testLog('bus') });
});

afterAll(async () => {
  directories.forEach((d) => d.close());
  await bus?.close();
  await identity?.close();
});

let nextId = 70_000_000 + Math.floor(Math.random() * 1_000_000);
function user(status: 'approved' | 'rejected' = 'approved') {
  const id = ++nextId;
  const username = `dir${id}`;
  table.set(id, { username, email: `${username}@directory-test.example`, status });
  return { id, username };
}

function directory(ttlMs?: number, max?: number) {
  const d = identityDirectory({
    address: `127.0.0.1:${identity.port}`,
    service: 'wallet',
    token,
    ttlMs,
    max,
  });
  directories.push(d);
  return d;
}

const askedFor = (id: number, username: string) =>
  asked.filter((a) => a === `id:${id}` || a.toLowerCase() === `username:${username}`.toLowerCase()).length;

/** What identity announces when it changes a user, as its outbox publishes it. */
function announce(subject: string, userId: number) {
  bus.nc.publish(bus.subject(subject), JSON.stringify(makeEvent(subject, { userId, username: '' })));
}

it('asks identity once for a user found, by id or by username in any case', async () => {
  const d = directory();
  const u = user();
  expect((await d.byId(u.id))?.username).toBe(u.username);
  expect((await d.byUsername(` ${u.username.toUpperCase()} `))?.id).toBe(u.id);
  expect((await d.byId(u.id))?.email).toBe(`${u.username}@directory-test.example`);
  expect(askedFor(u.id, u.username)).toBe(1);
});

it('asks identity once for a user many callers miss at the same time', async () => {
  const d = directory();
  const u = user();
  const answers = await Promise.all([
    ...Array.from({ length: 16 }, () => d.byId(u.id)),
    d.byUsername(u.username),
  ]);
  expect(answers.every((a) => a?.id === u.id)).toBe(true);
  // By id once; by name once too (its key is another until an answer files the user under both).
  expect(asked.filter((a) => a === `id:${u.id}`)).toHaveLength(1);
  expect(askedFor(u.id, u.username)).toBe(2);
});

it('a caller after a change heard does not share a lookup sent before it', async () => {
  const d = directory();
  const u = user();
  const before = d.byId(u.id);
  d.forget(u.id);
  const after = d.byId(u.id);
  await Promise.all([before, after]);
  expect(askedFor(u.id, u.username)).toBe(2);
});

it('asks again each time for a name nobody has yet, and finds it once registered', async () => {
  const d = directory();
  const id = ++nextId;
  const name = `late${id}`;
  expect(await d.byUsername(name)).toBeNull();
  expect(await d.byUsername(name)).toBeNull();
  table.set(id, { username: name, email: `${name}@directory-test.example`, status: 'approved' });
  expect((await d.byUsername(name))?.id).toBe(id);
  expect(asked.filter((a) => a === `username:${name}`)).toHaveLength(3);
});

it('follows a change identity announces at once, in every replica', async () => {
  const [one, two] = [directory(), directory()];
  const stops = [followUserChanges(bus, one), followUserChanges(bus, two)];
  try {
    const u = user();
    await one.byId(u.id);
    await two.byUsername(u.username);
    // The administrator rejects the user: identity writes it, then announces it.
    table.set(u.id, { ...table.get(u.id)!, status: 'rejected' });
    expect((await one.byId(u.id))?.status).toBe('approved');
    announce(IDENTITY_SUBJECTS.rejected, u.id);
    await eventually(async () => ((await one.byId(u.id))?.status === 'rejected' ? true : undefined));
    await eventually(async () =>
      (await two.byUsername(u.username))?.status === 'rejected' ? true : undefined,
    );
  } finally {
    stops.forEach((stop) => stop());
  }
});

it('answers but does not keep what a lookup brought while a change was heard', async () => {
  const d = directory();
  const u = user();
  const answer = d.byId(u.id);
  // Heard while the lookup is on its way: what it brings may be from before the change.
  d.forget(u.id);
  expect((await answer)?.status).toBe('approved');
  table.set(u.id, { ...table.get(u.id)!, status: 'rejected' });
  expect((await d.byId(u.id))?.status).toBe('rejected');
  expect(askedFor(u.id, u.username)).toBe(2);
});

it('forgets a user the cache still knows by one key only', async () => {
  // Room for three keys: the second user's two push out the first user's id, not their name.
  const d = directory(undefined, 3);
  const [u, other] = [user(), user()];
  await d.byUsername(u.username);
  await d.byUsername(u.username);
  await d.byId(other.id);
  table.set(u.id, { ...table.get(u.id)!, status: 'rejected' });
  d.forget(u.id);
  expect((await d.byUsername(u.username))?.status).toBe('rejected');
});

it('asks again once the TTL has passed, with no announcement heard', async () => {
  const d = directory(200);
  const u = user();
  await d.byId(u.id);
  table.set(u.id, { ...table.get(u.id)!, email: 'new@directory-test.example' });
  expect((await d.byId(u.id))?.email).not.toBe('new@directory-test.example');
  await new Promise((r) => setTimeout(r, 300));
  expect((await d.byId(u.id))?.email).toBe('new@directory-test.example');
  expect(askedFor(u.id, u.username)).toBe(2);
});
