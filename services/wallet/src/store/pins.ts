import type { IssuedOtp } from '@qm/platform';
import { type Connection, Schema } from 'mongoose';

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

export function createPinStore(conn: Connection) {
  const Pins = conn.model<PinDoc>('Pin', pinSchema);
  const set = (userId: number, fields: Partial<PinDoc>) =>
    Pins.updateOne({ _id: userId }, { $set: { ...fields, updatedAt: new Date() } }, { upsert: true }).exec();

  return {
    model: Pins,
    get: (userId: number) => Pins.findById(userId).lean<PinDoc>().exec(),
    choose: (userId: number, pending: PinDoc['pending']) => set(userId, { pending, otp: null }),
    issueOtp: (userId: number, otp: IssuedOtp) => set(userId, { otp }),
    /** Counts a wrong code; answers the attempts so far. */
    async wrongOtp(userId: number): Promise<number> {
      const doc = await Pins.findOneAndUpdate(
        { _id: userId, otp: { $ne: null } },
        { $inc: { 'otp.attempts': 1 } },
        { new: true },
      )
        .lean<PinDoc>()
        .exec();
      return doc?.otp?.attempts ?? Number.MAX_SAFE_INTEGER;
    },
    /** The verified code makes the pending PIN the PIN, once: the code is consumed in the same update. */
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
    /** Counts a wrong PIN; the fifth locks until `lockUntil` and starts the count again. */
    async wrongPin(
      userId: number,
      maxFailures: number,
      lockUntil: Date,
    ): Promise<{ failures: number; lockedUntil: Date | null }> {
      const doc = await Pins.findOneAndUpdate({ _id: userId }, { $inc: { failures: 1 } }, { new: true })
        .lean<PinDoc>()
        .exec();
      const failures = doc?.failures ?? 1;
      if (failures < maxFailures) return { failures, lockedUntil: null };
      await Pins.updateOne(
        { _id: userId, failures: { $gte: maxFailures } },
        { $set: { failures: 0, lockedUntil: lockUntil, updatedAt: new Date() } },
      ).exec();
      return { failures, lockedUntil: lockUntil };
    },
    rightPin: (userId: number) =>
      Pins.updateOne({ _id: userId, failures: { $gt: 0 } }, { $set: { failures: 0 } }).exec(),
  };
}

export type PinStore = ReturnType<typeof createPinStore>;
