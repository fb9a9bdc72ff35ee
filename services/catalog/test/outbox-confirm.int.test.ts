import { type Connection } from 'mongoose';
import { createLogger, createOutbox, type EventBus, makeEvent } from '@qm/platform';
import { CATALOG_SUBJECTS as SUBJECTS } from '@qm/contracts/events';
import { eventually } from '@qm/testkit';
import { confirmer } from '../src/events/catalog-events';
import { createProductStore } from '../src/store/products';
import { createReservationStore } from '../src/store/reservations';
import { json, listen, product, type Stack, startStack } from './harness';

/**
 * The outbox relay with the catalog's real confirmer: entries a dead process left 'pending' are
 * published when their change happened and dropped when it did not, judged from the database.
 */
jest.setTimeout(60_000);

describe('catalog outbox relay and confirmer (real database and NATS)', () => {
  let s: Stack;
  let events: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    events = await listen([SUBJECTS.created, SUBJECTS.deleted]);
    // The service's own relay stays out of the way: this test runs the relay passes itself.
    s = await startStack({ OUTBOX_RELAY_MS: '3600000' });
  });
  afterAll(async () => {
    await s?.stop();
    await events?.close();
  });

  it('publishes pending entries whose change happened and drops the others', async () => {
    const kept = await json(await s.http('maker', 'POST', '/api/products', product({ name: 'Kept' })));
    const gone = await json(await s.http('maker', 'POST', '/api/products', product({ name: 'Gone' })));
    expect((await s.http('maker', 'DELETE', `/api/products/${gone.id}`)).status).toBe(200);

    const { conn, bus } = s.catalog.rt as { conn: Connection; bus: EventBus };
    const store = createProductStore(conn);
    const confirm = confirmer(store, createReservationStore(conn, store));
    const entry = (subject: string, id: number) => ({ subject, event: makeEvent(subject, { id }) });
    const happened = [entry(SUBJECTS.created, kept.id), entry(SUBJECTS.deleted, gone.id)];
    const neverHappened = [entry(SUBJECTS.created, 987_654_321), entry(SUBJECTS.deleted, kept.id)];
    // As a process that died between writing its outbox entries and finishing its change leaves them.
    const createdAt = new Date(Date.now() - 60_000);
    await conn.collection('outbox').insertMany(
      [...happened, ...neverHappened].map((e) => ({
        _id: e.event.id as never,
        subject: e.subject,
        event: e.event,
        state: 'pending',
        createdAt,
        attempts: 0,
      })),
    );

    const relay = createOutbox({ conn, bus, log: createLogger('test', 'silent'), confirm });
    expect(await relay.relayOnce()).toBe(2);
    const ids = [...happened, ...neverHappened].map((e) => e.event.id as never);
    expect(await conn.collection('outbox').countDocuments({ _id: { $in: ids } })).toBe(0);
    const mine = new Set(ids as string[]);
    await eventually(() => events.seen.filter((e) => mine.has(e.event.id)).length === 2);
    expect(
      events.seen
        .filter((e) => mine.has(e.event.id))
        .map((e) => e.event.id)
        .sort(),
    ).toEqual(happened.map((e) => e.event.id).sort());
  });

  // docs/adr/050: a batch an earlier build left pending names its product event without `notice.`.
  it("judges an earlier build's product event as its notice, so that the batch's activity is not dropped", async () => {
    const kept = await json(await s.http('maker', 'POST', '/api/products', product({ name: 'Kept before' })));
    const { conn } = s.catalog.rt;
    const store = createProductStore(conn);
    const confirm = confirmer(store, createReservationStore(conn, store));
    const earlier = SUBJECTS.created.replace(/^notice\./, '');
    expect(earlier).toBe('catalog.product.created');
    await expect(confirm(makeEvent(earlier, { id: kept.id }), earlier)).resolves.toBe(true);
    await expect(confirm(makeEvent(earlier, { id: 987_654_321 }), earlier)).resolves.toBe(false);
  });
});
