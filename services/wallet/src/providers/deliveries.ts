import { SANDBOX_SIGNATURE_HEADER } from '@qm/contracts/rest';
import { isDuplicateKeyError, type Logger, type PeriodicJob } from '@qm/platform';
import { type Connection, type Model, Schema } from 'mongoose';

/**
 * The sandbox's webhooks, delivered at least once: each is recorded before the checkout answers
 * and POSTed by a periodic job until the receiver answers 2xx, with exponential backoff. So a
 * payment whose page was closed still reaches the crediting path.
 */
export interface Delivery {
  /** The payment it announces: one webhook per payment. */
  _id: string;
  url: string;
  body: string;
  signature: string;
  state: 'pending' | 'delivered' | 'gave-up';
  attempts: number;
  nextAttemptAt: Date;
  lastError: string;
  createdAt: Date;
  deliveredAt?: Date;
}

const deliverySchema = new Schema<Delivery>(
  {
    _id: { type: String, required: true },
    url: { type: String, required: true },
    body: { type: String, required: true },
    signature: { type: String, required: true },
    state: { type: String, required: true },
    attempts: { type: Number, required: true },
    nextAttemptAt: { type: Date, required: true },
    lastError: { type: String, default: '' },
    createdAt: { type: Date, required: true },
    deliveredAt: { type: Date },
  },
  { collection: 'webhook_deliveries', versionKey: false, strict: true, autoIndex: false },
);
deliverySchema.index({ state: 1 });

/** Retries back off from the base interval, doubling up to an hour; after this many the webhook is given up. */
const MAX_ATTEMPTS = 20;
const MAX_BACKOFF_MS = 60 * 60_000;
const REQUEST_TIMEOUT_MS = 10_000;
/** A claimed delivery is not retried by another run (or replica) while its request may still be going. */
const CLAIM_MS = REQUEST_TIMEOUT_MS + 5_000;

export interface Deliveries {
  model: Model<Delivery>;
  byId(id: string): Promise<Delivery | null>;
  /** Records the webhook of a payment once (recording it again changes nothing). */
  record(paymentId: string, webhook: { body: string; signature: string }): Promise<void>;
  /** Posts every delivery that is due; answers how many were delivered. */
  deliverDue(now?: Date): Promise<number>;
  /** For the service to register (every WEBHOOK_RETRY_MS; 0 turns delivery off). */
  job: PeriodicJob;
}

export function createDeliveries(
  conn: Connection,
  opts: { url: string; retryMs: number; log: Logger; batch?: number },
): Deliveries {
  const Deliveries = conn.model<Delivery>('WebhookDelivery', deliverySchema);
  const batch = opts.batch ?? 20;
  const backoff = (attempts: number) => Math.min(opts.retryMs * 2 ** (attempts - 1), MAX_BACKOFF_MS);

  async function post(d: Delivery): Promise<string | undefined> {
    try {
      const res = await fetch(d.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: d.signature },
        body: d.body,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      await res.arrayBuffer().catch(() => undefined);
      return res.ok ? undefined : `HTTP ${res.status}`;
    } catch (err) {
      return err instanceof Error ? err.message : String(err);
    }
  }

  async function attempt(d: Delivery, now: Date): Promise<boolean> {
    // Claim it by compare-and-set, so two runs never post the same delivery at once.
    const claimed = await Deliveries.updateOne(
      { _id: d._id, state: 'pending', nextAttemptAt: d.nextAttemptAt },
      { $set: { nextAttemptAt: new Date(now.getTime() + CLAIM_MS) } },
    );
    if (claimed.modifiedCount !== 1) return false;
    const error = await post(d);
    const attempts = d.attempts + 1;
    if (!error) {
      await Deliveries.updateOne(
        { _id: d._id },
        { $set: { state: 'delivered', attempts, deliveredAt: new Date(), lastError: '' } },
      );
      return true;
    }
    const gaveUp = attempts >= MAX_ATTEMPTS;
    (gaveUp ? opts.log.error : opts.log.warn).call(
      opts.log,
      { payment: d._id, attempts, error },
      gaveUp ? 'sandbox webhook given up' : 'sandbox webhook not delivered; will retry',
    );
    await Deliveries.updateOne(
      { _id: d._id },
      {
        $set: {
          state: gaveUp ? 'gave-up' : 'pending',
          attempts,
          lastError: error,
          nextAttemptAt: new Date(Date.now() + backoff(attempts)),
        },
      },
    );
    return false;
  }

  /** Posts every delivery that is due; answers how many were delivered. */
  async function deliverDue(now = new Date()): Promise<number> {
    const due = await Deliveries.find({ state: 'pending', nextAttemptAt: { $lte: now } })
      .limit(batch)
      .lean<Delivery[]>()
      .exec();
    const results = await Promise.all(due.map((d) => attempt(d, now)));
    return results.filter(Boolean).length;
  }

  return {
    model: Deliveries,
    byId: (id: string) => Deliveries.findById(id).lean<Delivery>().exec(),

    async record(paymentId: string, webhook: { body: string; signature: string }): Promise<void> {
      const now = new Date();
      try {
        await Deliveries.create({
          _id: paymentId,
          url: opts.url,
          ...webhook,
          state: 'pending',
          attempts: 0,
          nextAttemptAt: now,
          lastError: '',
          createdAt: now,
        });
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
      }
    },

    deliverDue,

    job: { name: 'sandbox-webhooks', everyMs: opts.retryMs, run: () => deliverDue() } satisfies PeriodicJob,
  };
}
