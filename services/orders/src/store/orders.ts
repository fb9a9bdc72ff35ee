import type { OrderStatusName } from '@qm/contracts/rest';
import {
  addFeeds,
  changeBuilt,
  containsText,
  countEqual,
  feedCounterId,
  feedFields,
  feedsOf,
  nextSequence,
} from '@qm/platform';
import { type Connection, type Model, Schema } from 'mongoose';
import {
  type OrderRecord,
  referenceOf,
  type RefundRecord,
  type RefundState,
  type SagaStep,
} from '../domain/order';

/**
 * Orders, one document each, carrying their saga's state (`step`). Every change is a conditional
 * update on the step it starts from, so of two drivers (the request and the sweeper) only one
 * moves an order on; the other reads where it went.
 *
 * A user's purchases and sales, and the administrators' list and tabs, are feeds (@qm/platform
 * feeds): a page costs the same however many orders there are.
 */
interface OrderDoc extends OrderRecord {
  _id: number;
  /**
   * Present, and true, only while the order's refund is not settled: the sweeper asks for it by
   * this one equality, which every store engine serves from an index (ADR 004), instead of reading
   * every order ever placed to find the few refunds under way.
   */
  refundOpen?: true;
  /**
   * Present, and true, on every order with a refund request: the administrators' refund list asks
   * for it by this equality instead of `refund: {$exists: true}`, which reads every order ever.
   */
  refundAsked?: true;
}

/** Named apart from the index of earlier builds, `requestKey_1`, which did not make the key unique. */
const REQUEST_KEY_INDEX = 'requestKey_unique';
/** What dropping an index answers when there is none to drop. */
const DROPPED_ALREADY = new Set(['IndexNotFound', 'NamespaceNotFound']);

const party = { id: Number, name: String, username: String, role: String };

const orderSchema = new Schema<OrderDoc>(
  {
    _id: { type: Number, required: true },
    id: { type: Number, required: true },
    reference: { type: String, required: true },
    productId: { type: Number, required: true },
    buyerId: { type: Number, required: true },
    sellerId: { type: Number, required: true },
    quantity: { type: Number, required: true },
    unitPricePaise: { type: Number, required: true },
    totalPaise: { type: Number, required: true },
    status: { type: String, required: true },
    paymentStatus: { type: String, required: true },
    step: { type: String, required: true },
    cancelReason: { type: String, default: '' },
    undo: { type: new Schema({ hold: Boolean, stock: Boolean }, { _id: false }) },
    product: { type: new Schema({ name: String, type: String, description: String }, { _id: false }) },
    buyerDetails: {
      type: new Schema({ name: String, role: String, email: String, phone: String }, { _id: false }),
    },
    buyer: { type: new Schema(party, { _id: false }) },
    seller: { type: new Schema(party, { _id: false }) },
    deadlineAt: { type: Date, required: true },
    refundableUntil: { type: Date },
    refund: {
      type: new Schema(
        {
          status: String,
          reason: String,
          requestedAt: Date,
          held: { type: Boolean, default: null },
          attempt: Number,
          source: String,
          decisionReason: String,
          decidedAt: Date,
          decidedBy: { type: new Schema({ userId: Number, username: String }, { _id: false }) },
          requestEvent: String,
          decisionEvent: String,
          settled: Boolean,
        },
        { _id: false },
      ),
    },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
    requestKey: { type: String },
    endEvent: { type: String },
    refundOpen: { type: Boolean },
    refundAsked: { type: Boolean },
  },
  { collection: 'orders', versionKey: false, strict: true, autoIndex: false },
);
orderSchema.index({ reference: 1 }, { unique: true });
// The sweeper's query and the administrators' counts: equality only (the local engine serves no more, ADR 004).
orderSchema.index({ status: 1 });
// The purchase request's own record (docs/adr/045): one order per buyer and Idempotency-Key.
orderSchema.index({ requestKey: 1 }, { unique: true, sparse: true, name: REQUEST_KEY_INDEX });
orderSchema.index({ refundOpen: 1 }, { sparse: true });
orderSchema.index({ refundAsked: 1 }, { sparse: true });

/**
 * buyer: a user's purchases; seller: a manufacturer's sales; all: the administrators' list;
 * buyerRole / sellerRole: its Army Orders and Manufacturer Sales tabs.
 */
const FEEDS = ['buyer', 'seller', 'all', 'buyerRole', 'sellerRole'] as const;
/**
 * Refunded orders, in the order their refunds were approved: filed by the update that refunds the
 * order (not at insert like the others), so the dashboard's running tally of the money paid back
 * (app/stats.ts) takes each in once, when it happens, without reading every refunded order again.
 */
export const REFUNDED_FEED = 'refunded';
addFeeds(orderSchema, [...FEEDS, REFUNDED_FEED]);
const ALL = 'all';

export type OrderFeed = (typeof FEEDS)[number];

const toRecord = ({
  _id,
  refundOpen: _open,
  refundAsked: _asked,
  ...d
}: OrderDoc & Record<string, unknown>): OrderRecord => {
  for (const k of Object.keys(d)) if (k.startsWith('feed')) delete d[k];
  return d as OrderRecord;
};

/** An order as a purchase places it: numbered (`id`, `reference`) by the store. */
export type NewOrder = Omit<OrderRecord, 'id' | 'reference'>;

/** What a saga step changes on an order. */
export type OrderChange = Partial<
  Pick<OrderRecord, 'step' | 'status' | 'paymentStatus' | 'cancelReason' | 'undo' | 'endEvent'>
>;

export interface OrderStore {
  /** The collection's model, for readers that go past the store (the statistics' feed tally). */
  model: Model<OrderDoc>;
  /**
   * Makes the collection's indexes as this build declares them: drops the non-unique index of
   * `requestKey` earlier builds made, which would stop the unique one from being created.
   */
  init(): Promise<void>;
  /**
   * Numbers the order (its id from the orders' counter, in the same step as its feed numbers) and
   * inserts it. Another order under its `requestKey` refuses it with a duplicate key error, and its
   * numbers are left unused.
   */
  place(order: NewOrder): Promise<OrderRecord>;
  /** An order already numbered (`nextId`), as it is given: for tests and loaders. */
  nextId(): Promise<number>;
  insert(order: OrderRecord): Promise<OrderRecord>;
  /** The order a purchase placed under this Idempotency-Key, if any. */
  byRequestKey(requestKey: string): Promise<OrderRecord | null>;
  get(id: number): Promise<OrderRecord | null>;
  /**
   * Moves the order on from `from`, if (and only if) it is still there. Answers the order as it is
   * now, and whether this call moved it.
   */
  advance(id: number, from: SagaStep, set: OrderChange): Promise<{ moved: boolean; order: OrderRecord }>;
  /** Every order not yet completed or cancelled (few: a saga takes seconds). */
  pending(): Promise<OrderRecord[]>;
  /** Page `page` of an owner's feed, newest first. */
  page(
    feed: OrderFeed,
    owner: string | number,
    page: number,
    pageSize: number,
  ): Promise<{ orders: OrderRecord[]; total: number }>;
  /** How many orders a feed holds (its counter: no order is read). */
  feedSize(feed: OrderFeed, owner: string | number): Promise<number>;
  /** Counts by status through the store engine (docs/adr/013). */
  countByStatus(status: OrderStatusName): Promise<number>;
  /** Records the buyer's refund request on their completed order, if it has none yet. */
  startRefund(
    id: number,
    buyerId: number,
    refund: RefundRecord,
  ): Promise<{ moved: boolean; order: OrderRecord }>;
  /**
   * Moves the order's refund on from `from`, if it is still there (with changes to the order itself);
   * an order made `refunded` is filed in the refunded feed by the same update.
   */
  moveRefund(
    id: number,
    from: RefundState,
    set: Partial<RefundRecord>,
    order?: Partial<Pick<OrderRecord, 'status' | 'paymentStatus'>>,
  ): Promise<{ moved: boolean; order: OrderRecord }>;
  /** Orders with a refund request: open ones first, newest first within each. */
  refunds(q: {
    page: number;
    pageSize: number;
    status?: RefundState[];
    search?: string;
  }): Promise<{ orders: OrderRecord[]; total: number }>;
  /** Refunds whose decision (or hold) is not done, untouched since `before` (the sweeper's). */
  unsettledRefunds(before: Date): Promise<OrderRecord[]>;
  /**
   * Marks `refundOpen` on the unsettled refunds, and `refundAsked` on every refund, of orders written
   * before they existed (reading every order once); how many it marked.
   */
  markOpenRefunds(): Promise<number>;
}

export function createOrderStore(conn: Connection): OrderStore {
  const Orders = conn.model<OrderDoc>('Order', orderSchema);
  const feeds = feedsOf<OrderDoc>(conn, Orders, {
    buyer: (o) => o.buyerId,
    seller: (o) => o.sellerId,
    all: () => ALL,
    buyerRole: (o) => o.buyer.role,
    sellerRole: (o) => o.seller.role,
  });

  return {
    model: Orders,

    async init() {
      await Orders.collection.dropIndex('requestKey_1').catch((err: unknown) => {
        // Never made (a new database, or a build since), or dropped by a replica starting alongside.
        if (!DROPPED_ALREADY.has((err as { codeName?: string }).codeName ?? '')) throw err;
      });
    },

    async place(order: NewOrder): Promise<OrderRecord> {
      const placed = await feeds.insert(order as OrderDoc, {
        numberFrom: { sequence: 'orders', fields: (id) => ({ _id: id, id, reference: referenceOf(id) }) },
      });
      return toRecord(placed as never);
    },

    nextId: () => nextSequence(conn, 'orders'),

    async insert(order: OrderRecord): Promise<OrderRecord> {
      return toRecord((await feeds.insert({ _id: order.id, ...order })) as never);
    },

    async byRequestKey(requestKey: string): Promise<OrderRecord | null> {
      const d = await Orders.findOne({ requestKey }).lean<OrderDoc>().exec();
      return d ? toRecord(d as never) : null;
    },

    async get(id: number): Promise<OrderRecord | null> {
      const d = await Orders.findById(id).lean<OrderDoc>().exec();
      return d ? toRecord(d as never) : null;
    },

    // The saga's moves are built typed here: the model's driver collection takes them (docs/adr/051).
    advance: (id: number, from: SagaStep, set: OrderChange) =>
      moveIf(Orders, id, { step: from }, { $set: { ...set, updatedAt: new Date() } }, onDriver(Orders)),

    async pending(): Promise<OrderRecord[]> {
      const docs = await Orders.find({ status: 'pending' }).lean<OrderDoc[]>().exec();
      return docs.map((d) => toRecord(d as never));
    },

    async page(feed: OrderFeed, owner: string | number, page: number, pageSize: number) {
      const { items, total } = await feeds.page(feed, owner, page, pageSize);
      return { orders: items.map((d) => toRecord(d as never)), total };
    },

    feedSize: (feed: OrderFeed, owner: string | number): Promise<number> => feeds.size(feed, owner),

    countByStatus: (status: OrderStatusName) => countEqual(Orders, { status }),

    ...refundQueries(Orders),
  };
}

/** Sends a conditional change and answers the order as it left it, or null when it matched none. */
type ChangeOrder = (
  filter: Record<string, unknown>,
  update: Record<string, unknown>,
) => Promise<OrderDoc | null>;

const throughMongoose =
  (Orders: Model<OrderDoc>): ChangeOrder =>
  (filter, update) =>
    Orders.findOneAndUpdate(filter, update, { new: true }).lean<OrderDoc>().exec();

const onDriver =
  (Orders: Model<OrderDoc>): ChangeOrder =>
  (filter, update) =>
    changeBuilt(Orders, filter, update);

/**
 * Applies `update` to the order if it still matches `filter` (a compare-and-set); answers the order as
 * it is now, and whether this call changed it.
 */
async function moveIf(
  Orders: Model<OrderDoc>,
  id: number,
  filter: Record<string, unknown>,
  update: Record<string, unknown>,
  change: ChangeOrder = throughMongoose(Orders),
): Promise<{ moved: boolean; order: OrderRecord }> {
  const after = await change({ _id: id, ...filter }, update);
  if (after) return { moved: true, order: toRecord(after as never) };
  const now = await Orders.findById(id).lean<OrderDoc>().exec();
  if (!now) throw new Error(`order ${id} vanished`);
  return { moved: false, order: toRecord(now as never) };
}

/** The refund requests' part of the store (docs/adr/028). */
function refundQueries(
  Orders: Model<OrderDoc>,
): Pick<OrderStore, 'startRefund' | 'moveRefund' | 'refunds' | 'unsettledRefunds' | 'markOpenRefunds'> {
  const dotted = (set: Partial<RefundRecord>) =>
    Object.fromEntries(Object.entries(set).map(([k, v]) => [`refund.${k}`, v]));

  return {
    startRefund: (id, buyerId, refund) =>
      moveIf(
        Orders,
        id,
        { buyerId, status: 'completed', refund: { $exists: false } },
        { $set: { refund, refundOpen: true, refundAsked: true, updatedAt: new Date() } },
      ),
    async moveRefund(id, from, set, order = {}) {
      // The number is taken first; if the move is another driver's, it is a gap the tally passes.
      const filed =
        order.status === 'refunded'
          ? feedFields(
              REFUNDED_FEED,
              ALL,
              await nextSequence(
                Orders.db,
                feedCounterId(Orders.collection.collectionName, REFUNDED_FEED, ALL),
              ),
            )
          : {};
      return moveIf(
        Orders,
        id,
        { 'refund.status': from },
        {
          $set: { ...dotted(set), ...order, ...filed, updatedAt: new Date() },
          ...(set.settled ? { $unset: { refundOpen: '' } } : {}),
        },
      );
    },
    async refunds({ page, pageSize, status, search }) {
      const text = containsText(search);
      const filter = {
        refundAsked: true,
        ...(status ? { 'refund.status': { $in: status } } : {}),
        ...(text ? { $or: [{ 'buyer.username': text }, { 'seller.username': text }] } : {}),
      };
      const [docs, total] = await Promise.all([
        // Open requests (not settled) first; few orders have a refund, so the sort is cheap.
        Orders.find(filter, null, {
          sort: { 'refund.settled': 1, 'refund.requestedAt': -1 },
          skip: (page - 1) * pageSize,
          limit: pageSize,
        })
          .lean<OrderDoc[]>()
          .exec(),
        Orders.countDocuments(filter).exec(),
      ]);
      return { orders: docs.map((d) => toRecord(d as never)), total };
    },
    async unsettledRefunds(before) {
      // An open request already held waits for its decision: nothing for the sweeper.
      const docs = await Orders.find({
        refundOpen: true,
        'refund.settled': false,
        $or: [{ 'refund.status': { $ne: 'requested' } }, { 'refund.held': null }],
        updatedAt: { $lt: before },
      })
        .lean<OrderDoc[]>()
        .exec();
      return docs.map((d) => toRecord(d as never));
    },
    async markOpenRefunds() {
      const [open, asked] = await Promise.all([
        Orders.updateMany(
          { 'refund.settled': false, refundOpen: { $exists: false } },
          { $set: { refundOpen: true } },
        ).exec(),
        Orders.updateMany(
          { refund: { $exists: true }, refundAsked: { $exists: false } },
          { $set: { refundAsked: true } },
        ).exec(),
      ]);
      return open.modifiedCount + asked.modifiedCount;
    },
  };
}

export const ALL_ORDERS = ALL;
