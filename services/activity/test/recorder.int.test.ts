import { randomInt } from 'node:crypto';
import { ACTIVITY_SUBJECT } from '@qm/contracts/events';
import { connectMongo, makeEvent } from '@qm/platform';
import { INFRA, testLog, uniqueName } from '@qm/testkit';
import type { Connection } from 'mongoose';
import { createRecorder } from '../src/app/recorder';
import { type ActivityStore, createActivityStore } from '../src/store/activities';

/**
 * The recorder looks up only events JetStream delivers again: a first delivery goes straight to the
 * insert (one read less per action), and what was stored before is still never stored twice.
 */
let conn: Connection;
let store: ActivityStore;

beforeAll(async () => {
  conn = await connectMongo(INFRA.MONGO_URL, uniqueName('qm_test_activity_recorder'));
  store = createActivityStore(conn);
  await store.model.createIndexes();
});

afterAll(async () => {
  await conn.dropDatabase();
  await conn.close();
});

it('reads nothing for first deliveries, looks up redeliveries, and stores each event once', async () => {
  const record = createRecorder({
    store,
    users: { emailOf: async () => 'someone@example.test', close: () => undefined },
    log: testLog(),
  });
  const userId = 800_000_000 + randomInt(0, 1_000_000);
  const event = (i: number) =>
    makeEvent(ACTIVITY_SUBJECT, { userId, username: `rec${userId}`, action: 'login', details: `event ${i}` });
  const [e0, e1, e2] = [event(0), event(1), event(2)];
  const reads = jest.spyOn(store.model, 'exists');
  try {
    await record([
      { event: e0, redelivered: false },
      { event: e1, redelivered: false },
    ]);
    expect(reads).not.toHaveBeenCalled();

    // e0 again, unacknowledged before; e1 published again after the stream's duplicate window; e2 new.
    await record([
      { event: e0, redelivered: true },
      { event: e1, redelivered: false },
      { event: e2, redelivered: false },
    ]);
    expect(reads).toHaveBeenCalledTimes(1);
  } finally {
    reads.mockRestore();
  }
  const stored = await store.model.find({ userId }).lean();
  expect(stored.map((d) => d.details).sort()).toEqual(['event 0', 'event 1', 'event 2']);
  // The copy of e1 took feed numbers it never used: a page is one short, and lists no one twice.
  const page = await store.page('user', userId, 1, 32);
  expect(page.items.map((r) => r.details).sort()).toEqual(['event 0', 'event 1', 'event 2']);
});
