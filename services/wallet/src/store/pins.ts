import type { IssuedOtp } from '@qm/platform';
import { type Connection, type Model, Schema, type UpdateWriteOpResult } from 'mongoose';

/** A user's PIN: the active hash, the one awaiting its emailed code, and the wrong-PIN lock. */
export interface PinDoc {
  _id: number;
  pin?: { codeHash: string; salt: string } | null;
  pending?: { codeHash: string; salt: string } | null;
  otp?: IssuedOtp | null;
  failures: number;
  lockedUntil?: Date | null;
  setAt?: Date | null;
  updatedAt: Date;
}

const pinSchema = new Schema<PinDoc>(
  {
    _id: { type: Number, required: true },
    pin: { type: Schema.Types.Mixed },
    pending: { type: Schema.Types.Mixed },
    otp: { type: Schema.Types.Mixed },
    failures: { type: Number, default: 0 },
    lockedUntil: { type: Date },
    setAt: { type: Date },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'pins', versionKey: false, strict: true, autoIndex: false },
);

export interface PinStore {
  model: Model<PinDoc>;
  get(userId: number): Promise<PinDoc | null>;
  /** Records the PIN awaiting its emailed code; any code issued for an earlier choice is dropped. */
  choose(userId: number, pending: PinDoc['pending']): Promise<UpdateWriteOpResult>;
  issueOtp(userId: number, otp: IssuedOtp): Promise<UpdateWriteOpResult>;
  /**
   * Takes one of the code's tries before it is compared: only while the code read is
   * still the one stored, unexpired and with tries left, so of any number of guesses at once at
   * most `maxAttempts` are ever compared. Answers the tries taken including this one, or null
   * when none was left (or the code was replaced or expired meanwhile).
   */
  reserveOtpAttempt(userId: number, otpHash: string, maxAttempts: number, now: Date): Promise<number | null>;
  /** The verified code makes the pending PIN the PIN, once: the code is consumed in the same update. */
  activate(userId: number, otpHash: string): Promise<boolean>;
  /**
   * Reserves a wrong-PIN slot before the PIN is compared (docs/adr/009): the count is taken first, so
   * at most `maxFailures` PINs are compared per lock, whatever arrives at once. Only while the
   * stored PIN is still `pinHash`, no lock is set and slots are left; the reservation that takes
   * the count to the maximum sets the lock in the same update. Answers the count after it and the
   * lock it set, or null when no slot was left (locked, or the PIN changed meanwhile).
   */
  reserveFailure(
    userId: number,
    pinHash: string,
    maxFailures: number,
    lockUntil: Date,
  ): Promise<{ failures: number; lockedUntil: Date | null } | null>;
  /**
   * A right PIN gives its slot back by starting the count again; a lock is cleared only by the
   * right PIN whose own reservation set it (`ownLock`), never one set by another guess.
   */
  rightPin(userId: number, ownLock: Date | null): Promise<void>;
  /** Ends a lock that has run out, once (compare-and-set on it), so the count starts again. */
  clearExpiredLock(userId: number, expired: Date): Promise<void>;
}

export function createPinStore(conn: Connection): PinStore {
  const Pins = conn.model<PinDoc>('Pin', pinSchema);
  const set = (userId: number, fields: Partial<PinDoc>) =>
    Pins.updateOne({ _id: userId }, { $set: { ...fields, updatedAt: new Date() } }, { upsert: true }).exec();

  return {
    model: Pins,
    // Read at every transfer: by the driver, as a lean read by _id with nothing to cast (docs/adr/051).
    get: async (userId: number) => (await Pins.collection.findOne({ _id: userId } as never)) as PinDoc | null,
    choose: (userId: number, pending: PinDoc['pending']) => set(userId, { pending, otp: null }),
    issueOtp: (userId: number, otp: IssuedOtp) => set(userId, { otp }),
    async reserveOtpAttempt(
      userId: number,
      otpHash: string,
      maxAttempts: number,
      now: Date,
    ): Promise<number | null> {
      const doc = await Pins.findOneAndUpdate(
        {
          _id: userId,
          'otp.codeHash': otpHash,
          'otp.attempts': { $lt: maxAttempts },
          'otp.expiresAt': { $gt: now },
        },
        { $inc: { 'otp.attempts': 1 } },
        { new: true },
      )
        .lean<PinDoc>()
        .exec();
      return doc?.otp?.attempts ?? null;
    },
    async activate(userId: number, otpHash: string): Promise<boolean> {
      const doc = await Pins.findById(userId).lean<PinDoc>().exec();
      if (!doc?.pending) return false;
      const r = await Pins.updateOne(
        { _id: userId, 'otp.codeHash': otpHash },
        {
          $set: {
            pin: doc.pending,
            pending: null,
            otp: null,
            failures: 0,
            lockedUntil: null,
            setAt: new Date(),
            updatedAt: new Date(),
          },
        },
      ).exec();
      return r.modifiedCount === 1;
    },
    async reserveFailure(
      userId: number,
      pinHash: string,
      maxFailures: number,
      lockUntil: Date,
    ): Promise<{ failures: number; lockedUntil: Date | null } | null> {
      const open = { _id: userId, 'pin.codeHash': pinHash, lockedUntil: null };
      const below = await Pins.findOneAndUpdate(
        { ...open, failures: { $lt: maxFailures - 1 } },
        { $inc: { failures: 1 } },
        { new: true },
      )
        .lean<PinDoc>()
        .exec();
      if (below) return { failures: below.failures, lockedUntil: null };
      // `$gte`: a count left at or above the maximum without a lock (an older build's) locks too.
      const last = await Pins.findOneAndUpdate(
        { ...open, failures: { $gte: maxFailures - 1 } },
        { $inc: { failures: 1 }, $set: { lockedUntil: lockUntil } },
        { new: true },
      )
        .lean<PinDoc>()
        .exec();
      return last ? { failures: last.failures, lockedUntil: lockUntil } : null;
    },
    async rightPin(userId: number, ownLock: Date | null): Promise<void> {
      const filter = ownLock ? { lockedUntil: ownLock } : { lockedUntil: null, failures: { $gt: 0 } };
      await Pins.updateOne(
        { _id: userId, ...filter },
        { $set: { failures: 0, lockedUntil: null, updatedAt: new Date() } },
      ).exec();
    },
    async clearExpiredLock(userId: number, expired: Date): Promise<void> {
      await Pins.updateOne(
        { _id: userId, lockedUntil: expired },
        { $set: { failures: 0, lockedUntil: null, updatedAt: new Date() } },
      ).exec();
    },
  };
}
