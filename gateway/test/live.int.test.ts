import { randomInt } from 'node:crypto';
import {
  CATALOG_SUBJECTS,
  type OrderEndedData,
  ORDERS_SUBJECTS,
  type QueryRepliedData,
  streamOf,
  SUPPORT_SUBJECTS,
  type TransferReceivedData,
  WALLET_SUBJECTS,
} from '@qm/contracts/events';
import { connectBus, type EventBus, makeEvent } from '@qm/platform';
import { eventually, INFRA, testLog } from '@qm/testkit';
import { headerSessions, json, startGateway } from '@qm/testkit/src/gateway';
import { createLiveHub, type LiveHub } from '../src/live/hub';

/**
 * GET /api/live (docs/API.md "Live updates") on the real gateway app and the real NATS: events published on the
 * bus reach the streams of the users they concern, and a reconnect with Last-Event-ID gets what it
 * missed.
 */
const log = testLog('live-test');
const base = 1_000_000 + randomInt(0, 1_000_000);
const alice = { userId: base + 1, username: 'alice', roles: ['Army'] };
const bob = { userId: base + 2, username: 'bob', roles: ['Manufacturer'] };
const nobody = base + 3;

interface SseEvent {
  id?: string;
  event: string;
  data: unknown;
}

/** An SSE stream read as a browser's EventSource would: its events, and the last id it was given. */
class Stream {
  readonly events: SseEvent[] = [];
  lastId = '';
  private constructor(
    readonly res: Response,
    private readonly abort: AbortController,
  ) {}

  static async open(url: string, user: string, lastEventId?: string): Promise<Stream> {
    const abort = new AbortController();
    const res = await fetch(`${url}/api/live`, {
      headers: { 'x-test-user': user, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
      signal: abort.signal,
    });
    const stream = new Stream(res, abort);
    if (res.ok) void stream.read();
    return stream;
  }

  private async read() {
    const decoder = new TextDecoder();
    let text = '';
    try {
      for await (const chunk of this.res.body as unknown as AsyncIterable<Uint8Array>) {
        text += decoder.decode(chunk, { stream: true });
        let end;
        while ((end = text.indexOf('\n\n')) >= 0) {
          this.frame(text.slice(0, end));
          text = text.slice(end + 2);
        }
      }
    } catch {
      // aborted
    }
  }

  private frame(block: string) {
    const fields: Record<string, string> = {};
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      const at = line.indexOf(':');
      fields[line.slice(0, at)] = line.slice(at + 1).trimStart();
    }
    if ('id' in fields) this.lastId = fields.id!;
    if ('data' in fields)
      this.events.push({ id: fields.id, event: fields.event ?? 'message', data: JSON.parse(fields.data!) });
  }

  of(type: string) {
    return this.events.filter((e) => e.event === type).map((e) => e.data);
  }

  close() {
    this.abort.abort();
  }
}

describe('live updates over SSE (real gateway app, real NATS)', () => {
  let bus: EventBus;
  let hub: LiveHub;
  let gw: Awaited<ReturnType<typeof startGateway>>;
  const opened: Stream[] = [];
  const open = async (user: string, lastEventId?: string) => {
    const s = await Stream.open(gw.url, user, lastEventId);
    opened.push(s);
    return s;
  };

  const publishOrder = (id: number, buyerId: number, sellerId: number) =>
    bus.publish(
      ORDERS_SUBJECTS.completed,
      makeEvent<OrderEndedData>(ORDERS_SUBJECTS.completed, {
        id,
        reference: `ref-${id}`,
        productId: 1,
        buyerId,
        sellerId,
        quantity: 1,
        totalPaise: 500,
        status: 'completed',
        cancelReason: '',
        updatedAt: new Date().toISOString(),
      }),
    );
  // Notices (docs/adr/050) go on core NATS, as the wallet and the catalog send them.
  const publishTransfer = async (receiverId: number, amountPaise: number) =>
    bus.notify(
      WALLET_SUBJECTS.transferReceived,
      makeEvent<TransferReceivedData>(WALLET_SUBJECTS.transferReceived, {
        receiverId,
        senderUsername: 'sender',
        amountPaise,
        reference: `p2p:${amountPaise}`,
      }),
    );
  const publishReply = (queryId: number, userId?: number) =>
    bus.publish(
      SUPPORT_SUBJECTS.replied,
      makeEvent<QueryRepliedData>(SUPPORT_SUBJECTS.replied, {
        queryId,
        status: 'in-progress',
        byUserId: nobody,
        at: new Date().toISOString(),
        subject: `Query ${queryId}`,
        ...(userId ? { userId } : {}),
      }),
    );
  const publishStock = async (id: number) =>
    bus.notify(
      CATALOG_SUBJECTS.updated,
      makeEvent(CATALOG_SUBJECTS.updated, {
        id,
        manufacturerId: bob.userId,
        stockDelta: -1,
        updatedAt: new Date().toISOString(),
      }),
    );

  beforeAll(async () => {
    bus = await connectBus({ servers: INFRA.NATS_URL, name: 'live-test', log });
    await bus.ensureStreams(['orders', 'catalog', 'wallet', 'support'].map(streamOf));
    hub = createLiveHub({ bus, log, maxStreamsPerUser: 2 });
    gw = await startGateway({}, headerSessions({ alice, bob }), { live: hub });
  });

  afterAll(async () => {
    for (const s of opened) s.close();
    hub?.close();
    await gw?.stop();
    await bus?.close();
  });

  it('is for signed-in users only, uncompressed text/event-stream, and documented', async () => {
    expect((await fetch(`${gw.url}/api/live`)).status).toBe(401);
    const s = await open('alice');
    expect(s.res.status).toBe(200);
    expect(s.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(s.res.headers.get('content-encoding')).toBeNull();
    await eventually(() => s.lastId !== '');
    s.close();
    await eventually(() => hub.openStreams(alice.userId) === 0);

    const doc = await json(await fetch(`${gw.url}/api/openapi.json`));
    const live = doc.paths['/api/live'].get;
    expect(Object.keys(live.responses['200'].content)).toEqual(['text/event-stream']);
    expect(live.responses).toHaveProperty('429');
  });

  it("each user hears only their own orders, transfers and query replies; both hear the market's stock", async () => {
    const a = await open('alice');
    const b = await open('bob');
    await eventually(() => a.lastId !== '' && b.lastId !== '');

    await publishOrder(base + 10, alice.userId, nobody);
    await publishTransfer(bob.userId, 1025);
    await publishOrder(base + 11, nobody, nobody);
    await publishTransfer(nobody, 1);
    await publishReply(base + 40, alice.userId);
    await publishReply(base + 41); // sent signed out: no one is told
    await publishReply(base + 42, nobody);
    await publishStock(base + 20);
    // One connection publishes them in order, so once the last is heard the others have been too.
    await eventually(() => a.of('product').length > 0 && b.of('product').length > 0);

    expect(a.events.map((e) => e.event)).toEqual(['order', 'query', 'product']);
    expect(a.of('query')).toEqual([
      { id: base + 40, status: 'in-progress', subject: `Query ${base + 40}`, userId: alice.userId },
    ]);
    expect(a.of('order')).toEqual([
      { id: base + 10, status: 'completed', buyerId: alice.userId, sellerId: nobody },
    ]);
    expect(b.events.map((e) => e.event)).toEqual(['transfer', 'product']);
    expect(b.of('transfer')).toEqual([
      { receiverId: bob.userId, senderUsername: 'sender', amountPaise: 1025, reference: 'p2p:1025' },
    ]);
    expect(b.of('product')).toEqual([{ productId: base + 20 }]);
    a.close();
    b.close();
  });

  it('a reconnect with Last-Event-ID replays only what the user missed; an unknown id is a reset', async () => {
    const first = await open('alice');
    await eventually(() => first.lastId !== '');
    await publishOrder(base + 30, nobody, alice.userId);
    await eventually(() => first.of('order').length > 0);
    const resumeFrom = first.lastId;
    first.close();
    await eventually(() => hub.openStreams(alice.userId) === 0);

    // Missed while away: one order and one transfer of hers, among others' events.
    await publishOrder(base + 31, alice.userId, bob.userId);
    await publishTransfer(bob.userId, 7);
    await publishTransfer(alice.userId, 2_000_00);
    await publishOrder(base + 32, bob.userId, nobody);
    const marker = await open('bob');
    await eventually(() => marker.lastId !== '');
    await publishStock(base + 33);
    await eventually(() => marker.of('product').length > 0);

    const again = await open('alice', resumeFrom);
    await eventually(() => again.events.length >= 3);
    expect(again.events.map((e) => [e.event, (e.data as { id?: number }).id])).toEqual([
      ['order', base + 31],
      ['transfer', undefined],
      ['product', undefined],
    ]);
    expect(again.of('transfer')).toEqual([expect.objectContaining({ amountPaise: 2_000_00 })]);
    again.close();
    marker.close();

    const stranger = await open('alice', 'someotherprocess-5');
    await eventually(() => stranger.events.length > 0);
    expect(stranger.events).toEqual([{ event: 'reset', data: {} }]);
    stranger.close();
  });

  it("refuses a user's streams beyond the limit with 429, and frees the slot when one closes", async () => {
    await eventually(() => hub.openStreams(bob.userId) === 0);
    const one = await open('bob');
    const two = await open('bob');
    const three = await open('bob');
    expect([one.res.status, two.res.status, three.res.status]).toEqual([200, 200, 429]);
    expect(await json(three.res)).toEqual({ message: 'Too many live streams open for this user' });
    // Another user is not limited by bob's streams.
    expect((await open('alice')).res.status).toBe(200);
    one.close();
    await eventually(() => hub.openStreams(bob.userId) === 1);
    expect((await open('bob')).res.status).toBe(200);
  });
});

describe('live updates with two gateway replicas (docs/adr/025)', () => {
  const replicas: {
    bus: EventBus;
    hub: LiveHub;
    gw: Awaited<ReturnType<typeof startGateway>>;
  }[] = [];
  let publisher: EventBus;
  const opened: Stream[] = [];

  beforeAll(async () => {
    publisher = await connectBus({ servers: INFRA.NATS_URL, name: 'live-test-publisher', log });
    await publisher.ensureStreams([streamOf('wallet')]);
    // Each replica its own NATS connection, hub and app, as two gateway processes.
    for (const name of ['gateway-1', 'gateway-2']) {
      const bus = await connectBus({ servers: INFRA.NATS_URL, name, log });
      const hub = createLiveHub({ bus, log });
      const gw = await startGateway({}, headerSessions({ alice, bob }), { live: hub });
      replicas.push({ bus, hub, gw });
    }
  });

  afterAll(async () => {
    for (const s of opened) s.close();
    for (const r of replicas) {
      r.hub.close();
      await r.gw.stop();
      await r.bus.close();
    }
    await publisher?.close();
  });

  it('an event reaches a browser on either gateway; a reconnect to the other one is told to reset, not given events after a foreign id', async () => {
    const onFirst = await Stream.open(replicas[0]!.gw.url, 'bob');
    const onSecond = await Stream.open(replicas[1]!.gw.url, 'bob');
    opened.push(onFirst, onSecond);
    await eventually(() => onFirst.lastId !== '' && onSecond.lastId !== '');

    publisher.notify(
      WALLET_SUBJECTS.transferReceived,
      makeEvent<TransferReceivedData>(WALLET_SUBJECTS.transferReceived, {
        receiverId: bob.userId,
        senderUsername: 'sender',
        amountPaise: 4242,
        reference: 'p2p:replicas',
      }),
    );
    await eventually(() => onFirst.of('transfer').length > 0 && onSecond.of('transfer').length > 0);
    for (const s of [onFirst, onSecond])
      expect(s.of('transfer')).toEqual([
        { receiverId: bob.userId, senderUsername: 'sender', amountPaise: 4242, reference: 'p2p:replicas' },
      ]);

    // The event ids are each replica's own: a browser that moves to the other gateway with one is told
    // to reload what it shows (a reset), never silently given the wrong events after that id.
    const moved = await Stream.open(replicas[1]!.gw.url, 'bob', onFirst.lastId);
    opened.push(moved);
    await eventually(() => moved.lastId !== '');
    expect(moved.events.map((e) => e.event)).toEqual(['reset']);
  });
});
