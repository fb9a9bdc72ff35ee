// The floor of an operation's cost as the product now makes it: the messages one P2P transfer and one
// purchase send between processes (their database commands and counter steps, their events with the
// deliveries and acknowledgements, their gRPC calls and mails), sent bare from this one process with
// the driver, into scratch databases made like the services' own (the same indexes, documents like
// theirs), and priced in the BUE of the same run. What an operation costs beyond this is our services'
// handling of those messages (Node, mongoose, grpc-js, logging, our code); what the floor itself costs
// is what the design asks for, and a budget below it cannot be met by any cut but fewer messages.
//
//   AUTH_RATE_LIMIT_SCALE=100 make dev      (or any running local stack)
//   npx tsx load/op-floor.ts [N=100]        (npm run bench:floor)
//
// The plans below are the messages counted on 2026-12-02 by tracing the services' write system calls
// (strace) while load/transfer-cost.mjs and load/purchase-cost.mjs ran (docs/performance/
// 2026-12-02-op-floor.md), less what 2026-12-05 removed: the activity lookup of a first delivery
// (ADR 019), the order's change at `commit` (ADR 010), six more of a purchase's (ADR 006, ADR 019;
// counted again by tracing), a transfer's move to `debited` (ADR 006) and a sale's second phase
// (ADR 043: a call, a change of the order, and 6 of the wallet's commands) and the mails' two reads
// of the order they mail (ADR 012: the process that completed it keeps it; with more than one replica
// of orders, a mail delivered to another still reads it), and a transfer's idempotency record, its
// claim and its answer, and its read of the payer's wallet (ADR 044: the transfer is the record, and a
// payer's wallet number is remembered after the first), and a purchase's idempotency answer and its
// order number's own counter step (ADR 045: the order answers for its key, numbered in its feeds'
// step), and a purchase's second question to catalog for its product (ADR 046: the reservation just
// answered for it), and a transfer's read of the receiver's wallet (ADR 048: its number remembered
// as the payer's is), and the catalog's outbox entry for a stock movement, whose event became a notice
// on core NATS as the receiver's of a transfer did (ADR 050), and a sale's reads of its buyer's and
// seller's wallets (ADR 048: their numbers remembered too). Count again when a path changes. A
// purchase's later release of its escrow to the seller is not in it
// (load/purchase-cost.mjs measures that apart). The plan is a lone purchase's: its outbox removal and
// its mails' two records of a handled delivery are shared by the purchases of 200 ms (ADR 052).
//
// Runs on Linux against the stack on loopback only, and removes what it made.
import { createMailer, mailMessage, openStoreEngine, type StoreEngine } from '@qm/platform';
import { INFRA, testLog } from '@qm/testkit';
import mongoose, { type Connection } from 'mongoose';
import { AckPolicy, connect, type JsMsg, StorageType } from 'nats';
import { loopbackOnly } from './lib/loopback.cjs';

// ESM helpers of the .mjs load scripts, from this CommonJS script.
const helpers = async () => ({
  ...(await import('./lib/bue.mjs')),
  ...(await import('./lib/process-cpu.mjs')),
  ...(await import('./grpc-floor.mjs')),
});

type Op = 'find' | 'insert' | 'update' | 'findAndModify' | 'delete' | 'counter';
/** `times` commands `op` on a service's collection; an insert writes `docs` documents at once. */
type Command = [db: string, collection: string, op: Op, times: number, docs?: number];

interface Plan {
  name: string;
  budget: number;
  commands: Command[];
  /** Events published (each awaited for its stream's acknowledgement, as the outbox does), each delivered to a durable consumer that acknowledges it (activity, mails). */
  published: number;
  /** Notices sent on core NATS, kept by no stream, heard by a listener (the gateway's live feed; docs/adr/050). */
  notices: number;
  /** gRPC calls, the browser's HTTP request to the gateway counted as one more. */
  calls: number;
  mails: number;
}

const PLANS: Plan[] = [
  {
    name: 'transfer',
    budget: 20,
    commands: [
      ['wallet', 'pins', 'find', 1],
      ['wallet', 'transfers', 'insert', 1],
      ['wallet', 'accounts', 'findAndModify', 1],
      ['wallet', 'accounts', 'update', 1],
      ['wallet', 'counter', 'counter', 1],
      ['wallet', 'entries', 'insert', 1, 2],
      ['wallet', 'transactions', 'insert', 1, 2],
      ['wallet', 'transfers', 'findAndModify', 1],
      ['activity', 'counter', 'counter', 1],
      ['activity', 'activities', 'insert', 1],
    ],
    published: 1,
    notices: 1,
    calls: 2,
    mails: 0,
  },
  {
    name: 'purchase',
    budget: 50,
    commands: [
      ['orders', 'idempotency_keys', 'insert', 1],
      ['orders', 'counter', 'counter', 1],
      ['orders', 'orders', 'insert', 1],
      ['catalog', 'stock_reservations', 'insert', 1],
      ['catalog', 'products', 'findAndModify', 1],
      ['orders', 'orders', 'findAndModify', 1],
      ['wallet', 'accounts', 'insert', 1],
      ['wallet', 'transfers', 'insert', 1],
      ['wallet', 'accounts', 'findAndModify', 1],
      ['wallet', 'accounts', 'update', 1],
      ['wallet', 'counter', 'counter', 1],
      ['wallet', 'entries', 'insert', 1, 2],
      ['wallet', 'transactions', 'insert', 1, 2],
      ['wallet', 'transfers', 'findAndModify', 1],
      ['catalog', 'stock_reservations', 'findAndModify', 2],
      ['orders', 'orders', 'findAndModify', 1],
      ['orders', 'outbox', 'insert', 1],
      ['orders', 'outbox', 'delete', 1],
      ['orders', 'processed_events', 'insert', 2],
      ['activity', 'counter', 'counter', 1],
      ['activity', 'activities', 'insert', 1],
    ],
    published: 2,
    notices: 1,
    calls: 6,
    mails: 2,
  },
];

const N = Math.max(10, Number(process.argv[2] || 100));
// Runs of each part before measuring it: enough for this client to be as warm as a service.
const WARM = 50;
const run = Date.now().toString(36);
loopbackOnly(INFRA.MONGO_URL, INFRA.NATS_URL, INFRA.SMTP_URL);

/** A document to insert; `_id` as the service's (a number or a string). */
type Fresh = mongoose.mongo.OptionalId<mongoose.mongo.Document> & { _id: never };

/** A scratch copy of one service database: its collections' indexes, and a document of each to copy. */
class ScratchDb {
  private templates = new Map<string, Record<string, unknown>>();
  private uniques = new Map<string, string[]>();
  private seeded = new Map<string, unknown[]>();
  private inserted = new Map<string, unknown[]>();
  private serial = 0;

  constructor(
    readonly conn: Connection,
    readonly engine: StoreEngine,
    private readonly live: mongoose.mongo.Db,
  ) {}

  static async open(service: string): Promise<ScratchDb> {
    const conn = await mongoose
      .createConnection(INFRA.MONGO_URL, { dbName: `qm_floor_${run}_${service}` })
      .asPromise();
    const engine = await openStoreEngine(conn, INFRA.STORE_ENGINE);
    return new ScratchDb(conn, engine, conn.getClient().db(`qm_${service}`));
  }

  /** Makes `collection` as the service has it and puts 20 documents in it to read and update. */
  async prepare(collection: string): Promise<void> {
    if (this.templates.has(collection)) return;
    const live = this.live.collection(collection);
    const template = ((await live.findOne({}, { sort: { _id: -1 } })) ?? {
      state: 'pending',
      payload: 'x'.repeat(300),
      createdAt: new Date(),
    }) as Record<string, unknown>;
    this.templates.set(collection, template);
    const indexes = await live.indexes().catch(() => []);
    const uniques: string[] = [];
    for (const { key, name, unique, sparse } of indexes) {
      if (name === '_id_') continue;
      await this.conn.db!.collection(collection).createIndex(key, {
        name,
        ...(unique && { unique }),
        ...(sparse && { sparse }),
      });
      if (unique) uniques.push(...Object.keys(key));
    }
    this.uniques.set(collection, uniques);
    const seeds = Array.from({ length: 20 }, () => this.fresh(collection));
    await this.conn.db!.collection(collection).insertMany(seeds);
    this.seeded.set(
      collection,
      seeds.map((d) => d._id),
    );
  }

  /** A copy of the collection's template with a new `_id` and new values in its unique fields. */
  private fresh(collection: string): Fresh {
    const n = ++this.serial;
    const doc: Record<string, unknown> = structuredClone(this.templates.get(collection)!);
    const renew = (v: unknown) => (typeof v === 'number' ? 1e9 + n : `floor-${run}-${n}`);
    doc._id = renew(doc._id);
    for (const path of this.uniques.get(collection) ?? []) {
      const parts = path.split('.');
      let at = doc;
      for (const p of parts.slice(0, -1)) at = (at[p] ??= {}) as Record<string, unknown>;
      at[parts.at(-1)!] = renew(at[parts.at(-1)!]);
    }
    return doc as Fresh;
  }

  async send(collection: string, op: Op, i: number, docs = 1): Promise<unknown> {
    if (op === 'counter') return this.engine.sequences.nextMany([{ name: `floor:${i % 20}`, count: 1 }]);
    const c = this.conn.db!.collection(collection);
    const seeds = this.seeded.get(collection)!;
    const _id = seeds[i % seeds.length] as never;
    const change = { $set: { updatedAt: new Date() }, $inc: { floorTouches: 1 } };
    switch (op) {
      case 'find':
        return c.findOne({ _id });
      case 'update':
        return c.updateOne({ _id }, change);
      case 'findAndModify':
        return c.findOneAndUpdate({ _id }, change, { returnDocument: 'after' });
      case 'insert': {
        const made = Array.from({ length: docs }, () => this.fresh(collection));
        this.inserted.set(
          collection,
          made.map((d) => d._id),
        );
        return docs === 1 ? c.insertOne(made[0]!) : c.insertMany(made);
      }
      case 'delete':
        return c.deleteMany({ _id: { $in: (this.inserted.get(collection) ?? []) as never[] } });
    }
  }

  async drop(): Promise<void> {
    await this.engine.sequences.clear('floor:');
    await this.conn.dropDatabase();
    await this.engine.close();
    await this.conn.close();
  }
}

/** A scratch JetStream stream with a durable consumer that acknowledges, and a live one that does not. */
async function eventPath() {
  const nc = await connect({ servers: INFRA.NATS_URL });
  const jsm = await nc.jetstreamManager();
  const stream = `QM_FLOOR_${run.toUpperCase()}`;
  const subject = `qmfloor.${run}`;
  await jsm.streams.add({ name: stream, subjects: [`${subject}.>`], storage: StorageType.File });
  await jsm.consumers.add(stream, {
    durable_name: 'acked',
    filter_subject: `${subject}.acked`,
    ack_policy: AckPolicy.Explicit,
  });
  const js = nc.jetstream();
  let waiting: { left: number; done: () => void } | undefined;
  const arrived = () => {
    if (waiting && --waiting.left === 0) waiting.done();
  };
  const messages = await (await js.consumers.get(stream, 'acked')).consume({ max_messages: 64 });
  void (async () => {
    for await (const m of messages as AsyncIterable<JsMsg>) {
      m.ack();
      arrived();
    }
  })();
  // Outside the stream, as a notice's subject is.
  const notice = `qmfloor-notice.${run}`;
  nc.subscribe(notice, { callback: arrived });
  await nc.flush();
  const payload = Buffer.alloc(400, 3);
  return {
    /** Publishes `published` events to the acknowledging consumer, sends `notices` to the listener, and waits for every delivery. */
    async send(published: number, notices: number) {
      if (!published && !notices) return;
      const delivered = new Promise<void>((done) => (waiting = { left: published + notices, done }));
      for (let e = 0; e < notices; e++) nc.publish(notice, payload);
      for (let e = 0; e < published; e++) await js.publish(`${subject}.acked`, payload);
      await delivered;
    },
    async close() {
      await jsm.streams.delete(stream);
      await nc.drain();
    },
  };
}

/**
 * Mails to the local SMTP sink by the services' own mailer (pooled connections, each message composed
 * and written whole); removed afterwards.
 */
function mailPath() {
  const mailer = createMailer({
    smtpUrl: INFRA.SMTP_URL,
    from: 'no-reply@quartermaster.local',
    log: testLog('op-floor'),
  });
  const to = `floor-${run}@example.test`;
  const paragraph = 'Your order is complete.\n'.repeat(20);
  return {
    send: (i: number) => mailer.send(to, mailMessage(`Floor ${i}`, [paragraph])),
    async close() {
      mailer.close();
      const listed = (await (await fetch(`${INFRA.MAILDEV_URL}/email`)).json()) as {
        id: string;
        to: { address: string }[];
      }[];
      for (const m of listed.filter((m) => m.to.some((t) => t.address === to)))
        await fetch(`${INFRA.MAILDEV_URL}/email/${m.id}`, { method: 'DELETE' });
    },
  };
}

/** The processes these messages go to (with this client, the whole of each part's cost). */
const COUNTED = ['ferretdb', 'postgres', 'nats-server', 'grpc-floor', 'maildev'];

type Paths = {
  dbs: Map<string, ScratchDb>;
  peer: { call(): Promise<unknown>; close(): void };
  events: Awaited<ReturnType<typeof eventPath>>;
  mail: ReturnType<typeof mailPath>;
};

interface Part {
  name: string;
  count(plan: Plan): number;
  /** The processes it reaches: only theirs is counted beside the client's, so each part keeps its own. */
  reaches: string[];
  send(plan: Plan, p: Paths, i: number): Promise<unknown>;
}

/** The kinds of message, each measured on its own so that the floor shows what each part takes. */
const PARTS: Part[] = [
  {
    name: 'database commands and counter steps',
    count: (plan) => plan.commands.reduce((n, [, , , times]) => n + times, 0),
    reaches: ['ferretdb', 'postgres'],
    async send(plan, p, i) {
      for (const [db, collection, op, times, docs] of plan.commands)
        for (let t = 0; t < times; t++) await p.dbs.get(db)!.send(collection, op, i * 7 + t, docs);
    },
  },
  {
    name: 'events (published, delivered, acknowledged) and notices',
    count: (plan) => plan.published + plan.notices,
    reaches: ['nats-server'],
    send: (plan, p) => p.events.send(plan.published, plan.notices),
  },
  {
    name: 'calls (gRPC, and HTTP as one)',
    count: (plan) => plan.calls,
    reaches: ['grpc-floor'],
    async send(plan, p) {
      for (let c = 0; c < plan.calls; c++) await p.peer.call();
    },
  },
  {
    name: 'mails',
    count: (plan) => plan.mails,
    reaches: ['maildev'],
    async send(plan, p, i) {
      for (let m = 0; m < plan.mails; m++) await p.mail.send(i);
    },
  },
];

async function main() {
  const { bareUpdateCpuMs, engineCpuPerCall, floorPeer, idleCpuRates } = await helpers();

  const services = [...new Set(PLANS.flatMap((p) => p.commands.map(([db]) => db)))];
  const dbs = new Map(await Promise.all(services.map(async (s) => [s, await ScratchDb.open(s)] as const)));
  const paths: Paths = {
    dbs,
    peer: await floorPeer(Buffer.alloc(300, 2)),
    events: await eventPath(),
    mail: mailPath(),
  };
  const idle = await idleCpuRates(COUNTED);
  console.log(
    'idle CPU ms per second (subtracted):',
    Object.fromEntries(Object.entries(idle).map(([k, r]) => [k, +(r * 1000).toFixed(2)])),
  );
  try {
    for (const plan of PLANS)
      for (const [db, collection, op] of plan.commands)
        if (op !== 'counter') await dbs.get(db)!.prepare(collection);
    for (const plan of PLANS) {
      // The unit again beside each plan: this machine's speed drifts within a run.
      const bue = await bareUpdateCpuMs();
      console.log(`1 BUE (a bare update's CPU, same run) = ${bue.ms.toFixed(3)} ms:`, bue.per);
      const rows = [];
      let total = 0;
      for (const part of PARTS) {
        const count = part.count(plan);
        if (!count) continue;
        const { per, total: ms } = await engineCpuPerCall(N, (n) => part.send(plan, paths, n), WARM, {
          reaches: part.reaches,
          idle,
        });
        total += ms;
        const where = Object.entries(per)
          .sort((a, b) => b[1] - a[1])
          .map(([k, v]) => `${k} ${v.toFixed(2)}`)
          .join(', ');
        rows.push({
          part: part.name,
          count,
          'CPU ms': +ms.toFixed(2),
          BUE: +(ms / bue.ms).toFixed(1),
          where,
        });
      }
      console.log(`${plan.name}: its messages sent bare, ${N} times each, per ${plan.name}:`);
      console.table(rows);
      const floor = total / bue.ms;
      console.log(
        `  floor ${total.toFixed(1)} ms = ${floor.toFixed(1)} BUE (budget ${plan.budget})` +
          (floor > plan.budget ? ': the budget is below what these messages alone cost' : ''),
      );
    }
  } finally {
    paths.peer.close();
    await paths.events.close();
    await paths.mail.close();
    for (const db of dbs.values()) await db.drop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
