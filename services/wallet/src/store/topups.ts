import type { PaymentProviderName } from '@qm/contracts/rest';
import { nextSequence } from '@qm/platform';
import { type Connection, type Model, Schema, type UpdateWriteOpResult } from 'mongoose';
import { historyLineId, type TopUpStatus } from '../domain/topups';

/**
 * Card top-ups (domain/topups.ts): one per checkout, unique by the provider's order id, and by the
 * provider's payment id once one is claimed. Every status change is a compare-and-set on one
 * document, so of a page and a webhook racing for the same top-up only one moves it.
 */
export interface TopUp {
  /** Numeric id (Stripe's PaymentIntent carries it in its metadata). */
  _id: number;
  userId: number;
  /** Kept for the activity records a webhook (which has no signed-in user) writes. */
  username: string;
  amount: number;
  currency: 'INR';
  provider: PaymentProviderName;
  providerOrderId: string;
  providerPaymentId?: string;
  status: TopUpStatus;
  /** The user's history line (pending until the credit completes it). */
  lineId: string;
  transferId?: string;
  /** A failed or expired top-up's line is failed after the top-up (a crash between the two is retried). */
  lineClosed?: boolean;
  /** Why it failed, as its line says: the provider's decline, or the expiry. */
  failureReason?: string;
  /** While set and in the future, one caller is posting the credit; the others wait for it. */
  creditingUntil?: Date | null;
  createdAt: Date;
  updatedAt: Date;
  paidAt?: Date;
  completedAt?: Date;
}

const topUpSchema = new Schema<TopUp>(
  {
    _id: { type: Number, required: true },
    userId: { type: Number, required: true },
    username: { type: String, default: '' },
    amount: { type: Number, required: true },
    currency: { type: String, required: true },
    provider: { type: String, required: true },
    providerOrderId: { type: String, required: true },
    providerPaymentId: { type: String },
    status: { type: String, required: true },
    lineId: { type: String, required: true },
    transferId: { type: String },
    lineClosed: { type: Boolean },
    failureReason: { type: String },
    creditingUntil: { type: Date, default: null },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
    paidAt: { type: Date },
    completedAt: { type: Date },
  },
  { collection: 'topups', versionKey: false, strict: true, autoIndex: false },
);
topUpSchema.index({ providerOrderId: 1 }, { unique: true });
topUpSchema.index({ providerPaymentId: 1 }, { unique: true, sparse: true });
// The sweep's questions: which checkouts were abandoned, which paid ones were never credited.
topUpSchema.index({ status: 1 });
topUpSchema.index({ lineClosed: 1 }, { sparse: true });

export type NewTopUp = Omit<TopUp, 'status' | 'createdAt' | 'updatedAt'>;

export interface TopUpStore {
  model: Model<TopUp>;
  byId(id: number): Promise<TopUp | null>;
  /** The next numeric top-up id. */
  nextId(): Promise<number>;
  byProviderOrderId(providerOrderId: string): Promise<TopUp | null>;
  /** Records a new checkout (created). */
  insert(t: NewTopUp, at: Date): Promise<TopUp>;
  /**
   * Claims `paymentId` as the top-up's one payment (created → paid). A payment that arrives after
   * a decline or the expiry still credits, on a new line (the first one stays failed).
   * Answers the top-up after, whoever claimed it: the caller compares the payment id it holds.
   */
  claimPayment(id: number, paymentId: string, at: Date): Promise<TopUp | null>;
  /** Takes the right to post the credit of a paid top-up for `ms` (a caller that dies loses it). */
  lease(id: number, ms: number): Promise<TopUp | null>;
  /** paid → completed once; the top-up after, or null for a caller that did not move it. */
  complete(id: number, transferId: string): Promise<TopUp | null>;
  /**
   * created → failed (a declined card) or expired (never paid in time), with the reason its line
   * will show; the line is closed next (lineClosed). The top-up as this call left it, or null when
   * it was not created any more (paid, or ended by another caller): of two replicas' sweeps, or a
   * sweep and a webhook, one moves it and closes its line.
   */
  fail(id: number, status: 'failed' | 'expired', failureReason: string): Promise<TopUp | null>;
  markLineClosed(id: number): Promise<UpdateWriteOpResult>;
  /** Checkouts open since before `before`: they expire. */
  unpaidSince(before: Date, limit: number): Promise<TopUp[]>;
  /**
   * Failed or expired top-ups whose line is not yet failed (a crash between the two), by the one
   * equality `lineClosed: false`, which only those carry: the status index would answer every
   * failed or expired top-up ever, and a top-level $or every top-up (11.6 s at 51 k; ADR 004).
   */
  unclosed(limit: number): Promise<TopUp[]>;
  /** Paid top-ups whose credit has not completed since before `before` (a crash between the two). */
  uncredited(before: Date, limit: number): Promise<TopUp[]>;
}

export function createTopUpStore(conn: Connection): TopUpStore {
  const TopUps = conn.model<TopUp>('TopUp', topUpSchema);
  const byId = (id: number) => TopUps.findById(id).lean<TopUp>().exec();

  return {
    model: TopUps,
    byId,
    nextId: () => nextSequence(conn, 'topups'),
    byProviderOrderId: (providerOrderId: string) => TopUps.findOne({ providerOrderId }).lean<TopUp>().exec(),

    async insert(t: NewTopUp, at: Date): Promise<TopUp> {
      const doc: TopUp = { ...t, status: 'created', creditingUntil: null, createdAt: at, updatedAt: at };
      await TopUps.create(doc);
      return doc;
    },

    async claimPayment(id: number, paymentId: string, at: Date): Promise<TopUp | null> {
      const paid: Partial<TopUp> = {
        status: 'paid',
        providerPaymentId: paymentId,
        paidAt: at,
        updatedAt: at,
      };
      const claim = (status: TopUpStatus, set: Partial<TopUp>) =>
        TopUps.findOneAndUpdate({ _id: id, status }, { $set: set }, { new: true }).lean<TopUp>().exec();
      const late = { ...paid, lineId: `${historyLineId(id)}:late` };
      return (
        (await claim('created', paid)) ??
        (await claim('failed', late)) ??
        (await claim('expired', late)) ??
        byId(id)
      );
    },

    async lease(id: number, ms: number): Promise<TopUp | null> {
      const now = new Date();
      return TopUps.findOneAndUpdate(
        { _id: id, status: 'paid', $or: [{ creditingUntil: null }, { creditingUntil: { $lt: now } }] },
        { $set: { creditingUntil: new Date(now.getTime() + ms), updatedAt: now } },
        { new: true },
      )
        .lean<TopUp>()
        .exec();
    },

    complete(id: number, transferId: string): Promise<TopUp | null> {
      const now = new Date();
      return TopUps.findOneAndUpdate(
        { _id: id, status: 'paid' },
        { $set: { status: 'completed', transferId, completedAt: now, updatedAt: now, creditingUntil: null } },
        { new: true },
      )
        .lean<TopUp>()
        .exec();
    },

    fail: (id: number, status: 'failed' | 'expired', failureReason: string) =>
      TopUps.findOneAndUpdate(
        { _id: id, status: 'created' },
        { $set: { status, failureReason, lineClosed: false, updatedAt: new Date() } },
        { new: true },
      )
        .lean<TopUp>()
        .exec(),

    markLineClosed: (id: number) => TopUps.updateOne({ _id: id }, { $set: { lineClosed: true } }).exec(),

    unpaidSince: (before: Date, limit: number) =>
      TopUps.find({ status: 'created', createdAt: { $lt: before } })
        .limit(limit)
        .lean<TopUp[]>()
        .exec(),

    unclosed: (limit: number) => TopUps.find({ lineClosed: false }).limit(limit).lean<TopUp[]>().exec(),

    uncredited: (before: Date, limit: number) =>
      TopUps.find({ status: 'paid', updatedAt: { $lt: before } })
        .limit(limit)
        .lean<TopUp[]>()
        .exec(),
  };
}
