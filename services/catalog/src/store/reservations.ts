import { changeBuilt, insertBuilt, isDuplicateKeyError } from '@qm/platform';
import { type Connection, type Model, Schema } from 'mongoose';
import type { Searchable } from '../domain/listing';
import type { ProductStore } from './products';

/**
 * Stock reservations of the orders service, one document per reference (its _id). Each step is a
 * single-document conditional update, on the reservation or on the product, never a transaction:
 *
 *   pending ──(stock taken)──▶ reserved ──▶ committed ──▶ returning ──(stock put back)──▶ returned
 *      │                          │
 *      └─▶ rejected               └─▶ releasing ──(stock put back)──▶ released
 *
 * The reservation changes state first (so of two concurrent releases, or a release and a commit,
 * one wins), then the product moves stock under a key (`reserve:<ref>`, `release:<ref>`,
 * `return:<ref>`) that it applies at most once, then the state is completed. A retry after a crash
 * at any point resumes from the recorded state without moving stock twice. A return gives a sold
 * reservation's units back for a refund (docs/adr/028), as a release does an unsold one's.
 */
export type ReservationState =
  'pending' | 'reserved' | 'rejected' | 'releasing' | 'released' | 'committed' | 'returning' | 'returned';

/** The keyed stock movements of a reservation (named in its product change events). */
export type Movement = 'reserve' | 'release' | 'return';

export interface Reservation {
  reference: string;
  productId: number;
  quantity: number;
  state: ReservationState;
  /** Why a pending reservation was rejected. */
  reason?: 'insufficient' | 'missing';
  /** A reserved (not committed) reservation may be released after this (the saga's sweeper, docs/adr/010). */
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

interface ReservationDoc extends Omit<Reservation, 'reference'> {
  _id: string;
}

const reservationSchema = new Schema<ReservationDoc>(
  {
    _id: { type: String, required: true },
    productId: { type: Number, required: true },
    quantity: { type: Number, required: true },
    state: { type: String, required: true },
    reason: { type: String },
    expiresAt: { type: Date, required: true },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'stock_reservations', versionKey: false, strict: true, autoIndex: false },
);
// The sweep of expired reservations (docs/adr/010) looks them up by state and expiry.
reservationSchema.index({ state: 1, expiresAt: 1 });

export type ReserveOutcome =
  | { kind: 'reserved' | 'duplicate'; reservation: Reservation; product: Searchable | null }
  | { kind: 'insufficient' | 'missing' | 'reference-reused' };

export type ReleaseOutcome =
  | { kind: 'released' | 'duplicate'; reservation: Reservation; product: Searchable | null }
  | { kind: 'unknown' | 'committed' | 'not-reserved' };

export type CommitOutcome =
  | { kind: 'committed' | 'duplicate'; reservation: Reservation }
  | { kind: 'unknown' | 'released' | 'returned' | 'not-reserved' };

export type ReturnOutcome =
  | { kind: 'returned' | 'duplicate'; reservation: Reservation; product: Searchable | null }
  | { kind: 'unknown' | 'not-committed' };

/** The key under which the product applies a reservation's movement once (`release:<ref>`…). */
const keyOf = (movement: Movement, reference: string) => `${movement}:${reference}`;

/** The states a reservation reaches only after the movement took effect (the product forgets old keys). */
const movedIn: Record<Movement, ReservationState[]> = {
  reserve: ['reserved', 'committed', 'releasing', 'released', 'returning', 'returned'],
  release: ['released'],
  return: ['returned'],
};

const toReservation = ({ _id, ...d }: ReservationDoc): Reservation => ({ reference: _id, ...d });

export interface ReservationStore {
  /** Builds the indexes (autoIndex is off). */
  init(): Promise<void>;
  find(reference: string): Promise<Reservation | null>;
  /** Takes `quantity` of the product under `reference`, once: a repeat answers `duplicate`. */
  reserve(
    productId: number,
    quantity: number,
    reference: string,
    expiresAt: Date,
    at: Date,
  ): Promise<ReserveOutcome>;
  /** Puts a reserved reservation's stock back, once; a committed one stays sold. */
  release(reference: string, at: Date): Promise<ReleaseOutcome>;
  /** Keeps a reserved reservation's stock taken for good, once; a released one cannot be. */
  commit(reference: string, at: Date): Promise<CommitOutcome>;
  /** Puts a committed reservation's stock back (a refund), once; nothing else can be returned. */
  returnSold(reference: string, at: Date): Promise<ReturnOutcome>;
  /** Whether a reservation's stock movement took effect (the outbox asks after a crash). */
  moved(productId: number, reference: string, movement: Movement): Promise<boolean>;
}

/** A put-back's two states: begun (the units may or may not be back yet), and done. */
const putBackStates = {
  release: { begun: 'releasing', done: 'released' },
  return: { begun: 'returning', done: 'returned' },
} as const satisfies Record<Exclude<Movement, 'reserve'>, Record<'begun' | 'done', ReservationState>>;

/** The single-document steps every change of a reservation is made of. */
function steps(Reservations: Model<ReservationDoc>, products: ProductStore) {
  const find = async (reference: string) => {
    const d = await Reservations.findById(reference).lean<ReservationDoc>();
    return d ? toReservation(d) : null;
  };

  /**
   * Moves from one state to another if (and only if) the reservation is still in the first. Built
   * typed here, so sent to the model's driver collection (docs/adr/051): each purchase makes two.
   */
  async function transition(reference: string, from: ReservationState, set: Partial<ReservationDoc>) {
    const d = await changeBuilt(Reservations, { _id: reference, state: from }, { $set: set });
    return d ? toReservation(d) : null;
  }

  /**
   * Finishes a put-back (release, return) begun by moving the reservation to its `begun` state: the
   * units go back under the movement's key, at most once however many callers get here, then the
   * state is `done`. `applied`: this caller's update moved them (or found the product deleted).
   */
  async function putBack(
    { reference, productId, quantity }: Reservation,
    movement: 'release' | 'return',
    at: Date,
  ) {
    const { begun, done } = putBackStates[movement];
    // Not capped: units that were taken come back even if the owner raised the stock meanwhile.
    const moved = await products.move(productId, quantity, at, {
      key: keyOf(movement, reference),
      capped: false,
    });
    const now =
      (await transition(reference, begun, { state: done, updatedAt: at })) ?? (await find(reference));
    // A deleted product has nothing to put back; the reservation is completed all the same.
    if (!('product' in moved)) return { applied: true, reservation: now!, product: null };
    return { applied: moved.kind === 'applied', reservation: now!, product: moved.product };
  }

  return { find, transition, putBack };
}

export function createReservationStore(conn: Connection, products: ProductStore): ReservationStore {
  const Reservations = conn.model<ReservationDoc>('StockReservation', reservationSchema);
  const { find, transition, putBack } = steps(Reservations, products);

  return {
    async init(): Promise<void> {
      await Reservations.createIndexes();
    },

    find,

    async reserve(
      productId: number,
      quantity: number,
      reference: string,
      expiresAt: Date,
      at: Date,
    ): Promise<ReserveOutcome> {
      let existing: Reservation | null = null;
      try {
        await insertBuilt(Reservations, [
          { _id: reference, productId, quantity, state: 'pending', expiresAt, createdAt: at, updatedAt: at },
        ]);
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
        existing = await find(reference);
        if (!existing || existing.productId !== productId || existing.quantity !== quantity)
          return { kind: 'reference-reused' };
        if (existing.state === 'rejected') return { kind: existing.reason ?? 'insufficient' };
        if (existing.state !== 'pending')
          return { kind: 'duplicate', reservation: existing, product: await products.findById(productId) };
        // 'pending': an earlier attempt stopped midway; the product's movement key says whether it applied.
      }
      const moved = await products.move(productId, -quantity, at, { key: keyOf('reserve', reference) });
      if (moved.kind === 'applied' || moved.kind === 'duplicate') {
        const reservation =
          (await transition(reference, 'pending', { state: 'reserved', updatedAt: at })) ??
          (await find(reference));
        // Only the attempt whose update took the stock announces it.
        const kind = moved.kind === 'applied' ? 'reserved' : 'duplicate';
        return { kind, reservation: reservation!, product: moved.product };
      }
      const reason = moved.kind === 'missing' ? 'missing' : 'insufficient';
      await transition(reference, 'pending', { state: 'rejected', reason, updatedAt: at });
      return { kind: reason };
    },

    async release(reference: string, at: Date): Promise<ReleaseOutcome> {
      let reservation = await transition(reference, 'reserved', { state: 'releasing', updatedAt: at });
      if (!reservation) {
        reservation = await find(reference);
        if (!reservation) return { kind: 'unknown' };
        switch (reservation.state) {
          case 'released':
            return {
              kind: 'duplicate',
              reservation,
              product: await products.findById(reservation.productId),
            };
          case 'committed':
          case 'returning':
          case 'returned':
            return { kind: 'committed' };
          case 'pending':
          case 'rejected':
            return { kind: 'not-reserved' };
          case 'releasing':
            // An earlier or concurrent release: finish it; the movement key keeps it to one.
            break;
        }
      }
      const { applied, ...put } = await putBack(reservation, 'release', at);
      return { kind: applied ? 'released' : 'duplicate', ...put };
    },

    async commit(reference: string, at: Date): Promise<CommitOutcome> {
      const reservation = await transition(reference, 'reserved', { state: 'committed', updatedAt: at });
      if (reservation) return { kind: 'committed', reservation };
      const current = await find(reference);
      if (!current) return { kind: 'unknown' };
      if (current.state === 'committed') return { kind: 'duplicate', reservation: current };
      if (current.state === 'releasing' || current.state === 'released') return { kind: 'released' };
      if (current.state === 'returning' || current.state === 'returned') return { kind: 'returned' };
      return { kind: 'not-reserved' };
    },

    async returnSold(reference: string, at: Date): Promise<ReturnOutcome> {
      let reservation = await transition(reference, 'committed', { state: 'returning', updatedAt: at });
      if (!reservation) {
        reservation = await find(reference);
        if (!reservation) return { kind: 'unknown' };
        if (reservation.state === 'returned')
          return { kind: 'duplicate', reservation, product: await products.findById(reservation.productId) };
        if (reservation.state !== 'returning') return { kind: 'not-committed' };
        // An earlier or concurrent return: finish it; the movement key keeps it to one.
      }
      const { applied, ...put } = await putBack(reservation, 'return', at);
      return { kind: applied ? 'returned' : 'duplicate', ...put };
    },

    async moved(productId: number, reference: string, movement: Movement): Promise<boolean> {
      if (await products.moved(productId, keyOf(movement, reference))) return true;
      const state = (await find(reference))?.state;
      return !!state && movedIn[movement].includes(state);
    },
  };
}
