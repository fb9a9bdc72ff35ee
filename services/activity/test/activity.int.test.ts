import { randomBytes, randomUUID } from 'node:crypto';
import { ACTIVITY_SUBJECT } from '@qm/contracts/events';
import { ACTIVITY_ACTIONS, ACTIVITY_MESSAGES, type ActivityView } from '@qm/contracts/rest';
import { detachedStoreEngine, type EventBus, makeEvent } from '@qm/platform';
import { eventually, INFRA, madeAgo } from '@qm/testkit';
import { Browser, latestCode, type Registered } from '@qm/testkit/src/identity-stack';
import { releaseWindowOf } from '@qm/wallet/src/store/accounts';
import { JSONCodec } from 'nats';
import { createRecorder } from '../src/app/recorder';
import { createActivityStore } from '../src/store/activities';
import { type ActivitySearch, createActivitySearch } from '../src/store/search';
import { type ActivityStack, startActivityStack, topUp } from './stack';

jest.setTimeout(240_000);

let s: ActivityStack;
let army: { who: Registered; as: Browser };
let maker: { who: Registered; as: Browser };

const logOf = async (
  query: string,
): Promise<{ activities: ActivityView[]; total: number | null; hasMore: boolean }> => {
  const res = await s.admin.get(`/api/admin/user-activities?pageSize=32&${query}`);
  expect(res.status).toBe(200);
  return res.body;
};
const actionsOf = async (query: string) => (await logOf(query)).activities.map((a) => a.action);

beforeAll(async () => {
  s = await startActivityStack();
  army = await s.user('Army');
  maker = await s.user('Manufacturer');
});

afterAll(async () => {
  await s?.stop();
});

describe('every action of docs/product.md §3, recorded by the service that knows it happened', () => {
  it('appears in the activity service after the real thing', async () => {
    const { who, as } = army;
    // failed_login: the error message and the browser
    const wrong = new Browser(s.stack.url, 'Mozilla/5.0 ActivityTestBrowser/2.0');
    expect((await wrong.login(who.username, 'Wrong#1234')).status).toBe(401);
    // profile_view (the browser's report), profile_update
    expect(
      (await as.post('/api/user/activity', { action: 'profile_view', details: 'Viewed profile page' })).body,
    ).toEqual({
      recorded: true,
    });
    expect((await as.patch('/api/user/profile', { firstName: 'Renamed' })).status).toBe(200);
    // wallet_view, wallet_add_money + wallet_transaction (a top-up), wallet_transfer
    expect((await as.post('/api/wallet/views', {})).status).toBe(200);
    await topUp(as, 5000);
    expect((await as.post('/api/wallet/setup-pin', { pin: '246810', confirmPin: '246810' })).status).toBe(
      200,
    );
    const sent = Date.now() - 1000;
    expect((await as.post('/api/wallet/send-otp', {})).status).toBe(200);
    const pinCode = await latestCode(who.email, /wallet PIN/i, sent);
    expect((await as.post('/api/wallet/verify-otp', { otp: pinCode })).status).toBe(200);
    const transfer = await as.request(
      'POST',
      '/api/wallet/transfer',
      { receiverUsername: maker.who.username, amount: '10.00', pin: '246810' },
      { 'Idempotency-Key': `act-${randomBytes(6).toString('hex')}` },
    );
    expect(transfer.status).toBe(200);
    // product_create, product_update, product_view, order_place, order_view, product_delete
    const product = {
      name: 'Field Radio',
      type: 'Equipment',
      price: '100.00',
      description: 'VHF, 5 W',
      stock: 5,
    };
    const created = await maker.as.post('/api/products', product);
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    expect(
      (
        await maker.as.patch(`/api/products/${id}`, {
          description: 'VHF, 10 W',
          version: created.body.version,
        })
      ).status,
    ).toBe(200);
    expect((await as.post(`/api/products/${id}/views`, {})).status).toBe(204);
    const order = await as.post('/api/orders', { productId: id, quantity: 1, totalPrice: '100.00' });
    expect(order.status).toBe(201);
    expect((await as.get('/api/orders/purchased')).status).toBe(200);
    // refund_requested (the buyer's), refund_approved and refund_rejected (the administrator's), and
    // proceeds_released (the seller's, when a rejected refund's proceeds reach their balance)
    const askRefund = async (orderId: number) =>
      expect((await as.post(`/api/orders/${orderId}/refund-request`, { reason: 'Faulty' })).status).toBe(201);
    await askRefund(order.body.id);
    expect(
      (await s.admin.patch(`/api/admin/refunds/${order.body.id}`, { decision: 'approved' })).status,
    ).toBe(200);
    const kept = await as.post('/api/orders', { productId: id, quantity: 1, totalPrice: '100.00' });
    expect(kept.status).toBe(201);
    await askRefund(kept.body.id);
    expect(
      (await s.admin.patch(`/api/admin/refunds/${kept.body.id}`, { decision: 'rejected', reason: 'Used' }))
        .status,
    ).toBe(200);
    // The refund window is 48 hours: its end is brought forward for the wallet's sweeper, into the
    // current release window.
    await s.wallet.rt.conn
      .collection('accounts')
      .updateOne(
        { _id: `escrow:order-${kept.body.id}` as never },
        { $set: { releaseAt: new Date(0), releaseWindow: releaseWindowOf(new Date()) } },
      );
    const doomed = await maker.as.post('/api/products', { ...product, name: 'Spare Radio' });
    expect((await maker.as.delete(`/api/products/${doomed.body.id}`)).status).toBeLessThan(300);
    // password_change_otp_requested, password_change, password_reset_request, logout
    const asked = Date.now() - 1000;
    expect((await as.post('/api/user/request-password-change-otp')).status).toBe(200);
    const otp = await latestCode(who.email, /change code/, asked);
    const changed = await as.post('/api/user/verify-password-otp', {
      otp,
      currentPassword: who.password,
      newPassword: 'Changed#1357',
    });
    expect(changed.status).toBe(200);
    expect(
      (await new Browser(s.stack.url).post('/api/request-password-reset', { emailOrUsername: who.username }))
        .status,
    ).toBe(200);
    expect((await as.post('/api/logout')).status).toBe(200);

    const everyone = (q: string) => actionsOf(q);
    const adminId = (await s.admin.get('/api/user')).body.id as number;
    const seen = await eventually(async () => {
      const all = new Set([
        ...(await everyone(`userId=${who.id}`)),
        ...(await everyone(`userId=${maker.who.id}`)),
        ...(await everyone(`userId=${adminId}`)),
      ]);
      return ACTIVITY_ACTIONS.every((a) => all.has(a)) && all;
    }, 60_000);
    expect([...seen].sort()).toEqual([...ACTIVITY_ACTIONS].sort());

    const mine = (await logOf(`userId=${who.id}`)).activities;
    const failed = mine.find((a) => a.action === 'failed_login')!;
    expect(failed.details).toMatch(/^Error: .+; Browser: Mozilla\/5\.0 ActivityTestBrowser\/2\.0$/);
    expect(mine.find((a) => a.action === 'password_change')!.details).toBe('Password changed successfully');
    expect(
      mine.every((a) => a.username === who.username && a.email === who.email && a.userId === who.id),
    ).toBe(true);
    // newest first
    const times = mine.map((a) => Date.parse(a.created_at));
    expect(times).toEqual([...times].sort((x, y) => y - x));
  });
});

describe('GET /api/admin/user-activities: the filters of docs/product.md §5, on the server', () => {
  it('narrows by category tab (action substrings), by action, and both', async () => {
    const id = army.who.id;
    expect(new Set(await actionsOf(`userId=${id}&category=login`))).toEqual(
      new Set(['login', 'failed_login']),
    );
    // "logout" contains no "login": it is in no tab, only under All
    expect(await logOf(`action=logout&category=login`)).toMatchObject({ activities: [], total: 0 });
    expect(new Set(await actionsOf(`userId=${id}&category=profile`))).toEqual(
      new Set(['profile_view', 'profile_update']),
    );
    expect(new Set(await actionsOf(`userId=${id}&category=wallet`))).toEqual(
      new Set(['wallet_view', 'wallet_add_money', 'wallet_transaction', 'wallet_transfer']),
    );
    expect(new Set(await actionsOf(`userId=${id}&category=orders`))).toEqual(
      new Set(['product_view', 'order_place', 'order_view', 'refund_requested']),
    );
    expect(new Set(await actionsOf(`userId=${id}&category=password`))).toEqual(
      new Set(['password_change_otp_requested', 'password_change', 'password_reset_request']),
    );
    expect(await actionsOf(`userId=${id}&action=wallet_view`)).toEqual(['wallet_view']);
    expect(await actionsOf(`userId=${id}&category=wallet&action=wallet_view`)).toEqual(['wallet_view']);
    // an action outside the tab: nothing
    expect(await logOf(`userId=${id}&category=login&action=wallet_view`)).toMatchObject({
      activities: [],
      total: 0,
    });
    // without a user: everyone's, e.g. both users' logins
    const logins = (await logOf('action=login')).activities.map((a) => a.userId);
    expect(logins).toEqual(expect.arrayContaining([army.who.id, maker.who.id]));
  });

  it('searches username, email, action and details, case-insensitively, with the other filters', async () => {
    const { who } = army;
    const byEmail = await logOf(`search=${encodeURIComponent(who.email.toUpperCase())}`);
    expect(byEmail.total).toBeNull();
    expect(byEmail.activities.length).toBeGreaterThan(5);
    expect(byEmail.activities.every((a) => a.userId === who.id)).toBe(true);
    expect(await actionsOf(`userId=${who.id}&search=SUCCESSFULLY`)).toEqual(['password_change']);
    expect(await actionsOf(`userId=${who.id}&category=wallet&search=via%20sandbox`)).toEqual([
      'wallet_add_money',
    ]);
    expect(await actionsOf(`userId=${maker.who.id}&search=spare%20radio`)).toEqual(
      expect.arrayContaining(['product_create', 'product_delete']),
    );
    // LIKE's wildcards are literal
    expect(await actionsOf(`userId=${who.id}&search=%25`)).toEqual([]);
  });

  it('pages newest first with a total (feeds) or hasMore (search)', async () => {
    const id = army.who.id;
    const all = await logOf(`userId=${id}`);
    const first = await s.admin.get(`/api/admin/user-activities?userId=${id}&pageSize=5&page=1`);
    const second = await s.admin.get(`/api/admin/user-activities?userId=${id}&pageSize=5&page=2`);
    expect(first.body).toMatchObject({ total: all.total, hasMore: true, page: 1, pageSize: 5 });
    expect([...first.body.activities, ...second.body.activities].map((a: ActivityView) => a.id)).toEqual(
      all.activities.slice(0, 10).map((a) => a.id),
    );
    const searched = await s.admin.get(
      `/api/admin/user-activities?userId=${id}&search=${encodeURIComponent(army.who.username)}&pageSize=3&page=2`,
    );
    expect(searched.body.activities.map((a: ActivityView) => a.id)).toEqual(
      all.activities.slice(3, 6).map((a) => a.id),
    );
    expect(searched.body).toMatchObject({ total: null, hasMore: true });
  });

  // It builds the local engine itself, so it needs the pass's PostgreSQL: the MongoDB-only pass
  // (scripts/mongodb-path.mjs, the chart's path) gives none and must open no PostgreSQL connection.
  const postgresqlUrl = INFRA.STORE_ENGINE.postgresqlUrl;
  (postgresqlUrl ? it : it.skip)(
    `answers the same on the MongoDB engine (a regex) as on the local one (PostgreSQL trigrams)${
      postgresqlUrl ? '' : ' [skipped: no PostgreSQL URL on the MongoDB-only path]'
    }`,
    async () => {
      const { conn } = s.activity.rt;
      const url = postgresqlUrl!;
      const local = { engine: 'ferretdb-postgresql', postgresqlUrl: url } as const;
      const regex = await createActivitySearch(detachedStoreEngine(conn, { engine: 'mongodb' }));
      // Rare texts are read through the trigram index, common ones by walking the order: both ways.
      const engines = [
        detachedStoreEngine(conn, local),
        detachedStoreEngine(conn, local, { textRareBelow: 1 }),
      ];
      const [rare, common] = (await Promise.all(engines.map((e) => createActivitySearch(e)))) as [
        ActivitySearch,
        ActivitySearch,
      ];
      let found = 0;
      try {
        for (const q of [
          { text: army.who.email, offset: 0, limit: 32 },
          { text: 'wallet', userId: army.who.id, offset: 1, limit: 3 },
          { text: 'radio', category: 'orders' as const, offset: 0, limit: 32 },
          { text: 'log', action: 'login', offset: 0, limit: 32 },
        ]) {
          const expected = await regex.find(q);
          found += expected.length;
          expect(await rare.find(q)).toEqual(expected);
          expect(await common.find(q)).toEqual(expected);
        }
      } finally {
        await Promise.all(engines.map((e) => e.close()));
      }
      expect(found).toBeGreaterThan(0);
    },
  );
});

describe('the routes: who may call them and what they refuse', () => {
  it('401 without a session, 403 for non-administrators on the admin log', async () => {
    const anon = new Browser(s.stack.url);
    expect((await anon.get('/api/user/activity')).status).toBe(401);
    expect((await anon.get('/api/admin/user-activities')).status).toBe(401);
    expect((await anon.post('/api/user/activity', { action: 'profile_view' })).status).toBe(401);
    expect((await maker.as.get('/api/admin/user-activities')).status).toBe(403);
  });

  it('400 for bad input', async () => {
    for (const q of [
      'category=shopping',
      'action=made_up',
      'pageSize=33',
      'page=0',
      'userId=-1',
      'search=a%0Ab',
      `search=${'x'.repeat(101)}`,
    ])
      expect([q, (await s.admin.get(`/api/admin/user-activities?${q}`)).status]).toEqual([q, 400]);
    expect((await maker.as.get('/api/user/activity?pageSize=0')).status).toBe(400);
    const forged = await maker.as.post('/api/user/activity', { action: 'login', details: 'forged' });
    expect([forged.status, forged.body.message]).toEqual([400, ACTIVITY_MESSAGES.actionNotClient]);
    expect(
      (await maker.as.post('/api/user/activity', { action: 'profile_view', details: 'x'.repeat(2001) }))
        .status,
    ).toBe(400);
  });

  it("GET /api/user/activity: the caller's own, newest first, paged", async () => {
    const res = await maker.as.get('/api/user/activity?pageSize=32');
    expect(res.status).toBe(200);
    expect(res.body.total).toBeGreaterThanOrEqual(4);
    expect(res.body.activities.every((a: ActivityView) => a.userId === maker.who.id)).toBe(true);
    expect(res.body.activities[0].action).not.toBe('login'); // the login came first
  });
});

describe('storing each event once', () => {
  it('an event published again is stored once: dropped by JetStream within its window, looked up after it', async () => {
    const bus = s.activity.rt.bus as EventBus;
    const codec = JSONCodec();
    const eventOf = (details: string) =>
      makeEvent(ACTIVITY_SUBJECT, {
        userId: maker.who.id,
        username: maker.who.username,
        action: 'profile_view',
        details: `${details} ${randomUUID()}`,
      });
    const before = (await maker.as.get('/api/user/activity')).body.total as number;
    // Within the duplicate window: the bus publishes under the event's id, and JetStream drops the copy.
    const recent = eventOf('recent');
    for (let i = 0; i < 2; i++) await bus.publish(ACTIVITY_SUBJECT, recent);
    // Past it (a relay publishing again after a long outage): JetStream keeps both copies, and the
    // recorder looks the old event up before storing it.
    // The second copy waits until the first is stored, so they never meet in one batch.
    const old = madeAgo(5, eventOf('old'));
    for (const copy of ['a', 'b']) {
      await bus.js.publish(bus.subject(ACTIVITY_SUBJECT), codec.encode(old), { msgID: `${old.id}-${copy}` });
      await eventually(async () => (await maker.as.get('/api/user/activity')).body.total >= before + 2);
    }
    await new Promise((r) => setTimeout(r, 1500));
    const after = await maker.as.get(`/api/user/activity?pageSize=32`);
    // One number each in the feed: no copy took a second.
    expect(after.body.total).toBe(before + 2);
    for (const id of [recent.id, old.id])
      expect(after.body.activities.filter((a: ActivityView) => a.id === id)).toHaveLength(1);
  });

  it('a first delivery of a recent event is stored without a lookup; a repeat is looked up and dropped', async () => {
    const store = createActivityStore(s.activity.rt.conn);
    const lookups = jest.spyOn(store, 'missing');
    // A user identity does not know: their email is '' (what the service's directory answers too).
    const users = { emailOf: async () => '', close: () => undefined };
    const recorder = createRecorder({ store, users, log: s.activity.rt.log });
    const userId = 900_000_200 + Math.floor(Math.random() * 1000);
    const event = makeEvent(ACTIVITY_SUBJECT, {
      userId,
      username: `first${userId}`,
      action: 'login',
      details: 'once',
    });
    await recorder([{ event, mayRepeat: false }]);
    expect(lookups).not.toHaveBeenCalled();
    await recorder([{ event, mayRepeat: true }]);
    expect(lookups).toHaveBeenCalledWith([event.id]);
    // Two copies in one batch, the second a redelivery: looked up, and still stored once.
    lookups.mockClear();
    await recorder([
      { event, mayRepeat: false },
      { event, mayRepeat: true },
    ]);
    expect(lookups).toHaveBeenCalledWith([event.id]);
    const page = await store.page('user', userId, 1, 32);
    expect(page.items.map((r) => r.id)).toEqual([event.id]);
    expect(page.total).toBe(1);
  });

  it('a burst from several users is stored in batches, each event once, every feed numbered in order', async () => {
    const bus = s.activity.rt.bus as EventBus;
    const codec = JSONCodec();
    const run = randomUUID().slice(0, 8);
    const before = (await maker.as.get('/api/user/activity')).body.total as number;
    const others = [900_000_001, 900_000_002];
    const mine = Array.from({ length: 24 }, (_, i) =>
      makeEvent(ACTIVITY_SUBJECT, {
        userId: maker.who.id,
        username: maker.who.username,
        action: 'profile_view',
        details: `burst ${run} ${i}`,
      }),
    );
    const theirs = mine.flatMap((_, i) =>
      others.map((userId) =>
        makeEvent(ACTIVITY_SUBJECT, {
          userId,
          username: `u${userId}`,
          action: 'login',
          details: `burst ${run} ${i}`,
        }),
      ),
    );
    // Published without waiting, interleaved, with four of mine made minutes ago and published twice
    // under other message ids, as the outbox relay would after an outage past the duplicate window.
    for (let i = 0; i < mine.length; i += 6) mine[i] = madeAgo(5, mine[i]!);
    await Promise.all(
      mine.flatMap((event, i) => [
        bus.js.publish(bus.subject(ACTIVITY_SUBJECT), codec.encode(event), { msgID: event.id }),
        ...theirs
          .slice(i * 2, i * 2 + 2)
          .map((e) => bus.js.publish(bus.subject(ACTIVITY_SUBJECT), codec.encode(e), { msgID: e.id })),
        ...(i % 6 === 0
          ? [
              bus.js.publish(bus.subject(ACTIVITY_SUBJECT), codec.encode(event), {
                msgID: `${event.id}-again`,
              }),
            ]
          : []),
      ]),
    );
    await eventually(async () => (await maker.as.get('/api/user/activity')).body.total >= before + 24);
    await new Promise((r) => setTimeout(r, 1500));
    const page = await maker.as.get('/api/user/activity?page=1&pageSize=30');
    expect(page.body.total).toBe(before + 24);
    const burst = (page.body.activities as ActivityView[]).filter((a) =>
      a.details.startsWith(`burst ${run} `),
    );
    // Newest first: the feed numbers follow the publish order within the user's feed.
    expect(burst.map((a) => a.details)).toEqual(mine.map((_, i) => `burst ${run} ${i}`).reverse());
  });

  it('two replicas storing overlapping batches at once: each record once, the rest of a batch still stored', async () => {
    const store = createActivityStore(s.activity.rt.conn);
    const userId = 900_000_100 + Math.floor(Math.random() * 1000);
    const record = (i: number) => ({
      id: randomUUID(),
      userId,
      username: `race${userId}`,
      email: '',
      action: 'login',
      details: `race ${i}`,
      category: 'login' as const,
      createdAt: new Date(),
    });
    const shared = [record(0), record(1)];
    const a = [...shared, record(2)];
    const b = [record(3), ...shared];
    // Both passed `missing` before either wrote: the unique _id refuses the second copy only.
    await Promise.all([store.addMany(a), store.addMany(b)]);
    const stored = await store.model.find({ userId }).lean();
    expect(stored.map((d) => d.details).sort()).toEqual(['race 0', 'race 1', 'race 2', 'race 3']);
    expect(await store.missing([...a, ...b].map((r) => r.id))).toEqual(new Set());
    // A gap of a page, never a duplicate: the user's feed lists the four once each.
    const page = await store.page('user', userId, 1, 32);
    expect(page.items.map((r) => r.details).sort()).toEqual(['race 0', 'race 1', 'race 2', 'race 3']);
  });
});
