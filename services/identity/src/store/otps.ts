import { type Connection, Schema } from 'mongoose';
import { isDuplicateKeyError } from '@qm/platform';
import type { OtpPurpose, OtpRecord } from '../domain/otp';
import { OTP_MAX_ATTEMPTS, OTP_RESEND_MS, VERIFIED_WINDOW_MS } from '../domain/otp';

const otpSchema = new Schema<OtpRecord>(
  {
    userId: { type: Number, required: true },
    purpose: { type: String, enum: ['reset', 'change'], required: true },
    codeHash: { type: String, required: true },
    salt: { type: String, required: true },
    expiresAt: { type: Date, required: true },
    attempts: { type: Number, default: 0 },
    sentAt: { type: Date, required: true },
    verifiedAt: { type: Date, default: null },
    currentPasswordVerifiedAt: { type: Date, default: null },
  },
  { collection: 'otps', versionKey: false, strict: true },
);
// One live code per user and purpose; expiry is checked in code and swept (no TTL index).
otpSchema.index({ userId: 1, purpose: 1 }, { unique: true });
otpSchema.index({ expiresAt: 1 });

export type OtpStore = ReturnType<typeof createOtpStore>;

export function createOtpStore(conn: Connection) {
  const Otps = conn.model<OtpRecord>('Otp', otpSchema);

  return {
    init: () => Otps.init(),
    find: (userId: number, purpose: OtpPurpose) =>
      Otps.findOne({ userId, purpose }).lean<OtpRecord & { _id: unknown }>().exec(),
    /**
     * Stores a new code unless one was sent in the last 30 s. Atomic: the filter only matches an
     * old enough record, and the unique index refuses the insert an upsert would do otherwise.
     * Returns false when the cooldown refused it.
     */
    async replace(record: OtpRecord, now: Date): Promise<boolean> {
      try {
        const res = await Otps.updateOne(
          {
            userId: record.userId,
            purpose: record.purpose,
            sentAt: { $lte: new Date(now.getTime() - OTP_RESEND_MS) },
          },
          { $set: record },
        );
        if (res.matchedCount === 1) return true;
        await Otps.create(record);
        return true;
      } catch (err) {
        if (isDuplicateKeyError(err)) return false;
        throw err;
      }
    },
    /** Counts a wrong try; answers the attempts after it, or undefined if the code changed meanwhile. */
    async countWrong(rec: OtpRecord): Promise<number | undefined> {
      const doc = await Otps.findOneAndUpdate(
        {
          userId: rec.userId,
          purpose: rec.purpose,
          codeHash: rec.codeHash,
          attempts: { $lt: OTP_MAX_ATTEMPTS },
        },
        { $inc: { attempts: 1 } },
        { new: true },
      )
        .lean<OtpRecord>()
        .exec();
      return doc?.attempts;
    },
    async markVerified(rec: OtpRecord, at: Date): Promise<void> {
      await Otps.updateOne(
        { userId: rec.userId, purpose: rec.purpose, codeHash: rec.codeHash },
        { $set: { verifiedAt: at } },
      );
    },
    async markCurrentPasswordVerified(userId: number, purpose: OtpPurpose, at: Date): Promise<boolean> {
      const res = await Otps.updateOne({ userId, purpose }, { $set: { currentPasswordVerifiedAt: at } });
      return res.matchedCount === 1;
    },
    /** Uses the code up; false if someone else consumed or replaced it first. */
    async consume(rec: OtpRecord): Promise<boolean> {
      const res = await Otps.deleteOne({ userId: rec.userId, purpose: rec.purpose, codeHash: rec.codeHash });
      return res.deletedCount === 1;
    },
    async removeForUser(userId: number): Promise<void> {
      await Otps.deleteMany({ userId });
    },
    async remove(userId: number, purpose: OtpPurpose): Promise<void> {
      await Otps.deleteMany({ userId, purpose });
    },
    /** Codes nobody can use any more: expired and not within a verified window. */
    async sweep(now: Date): Promise<number> {
      const res = await Otps.deleteMany({
        expiresAt: { $lt: now },
        $or: [{ verifiedAt: null }, { verifiedAt: { $lt: new Date(now.getTime() - VERIFIED_WINDOW_MS) } }],
      });
      return res.deletedCount;
    },
  };
}
