import { type Connection, type HydratedDocument, Schema } from 'mongoose';
import { attemptOpenFilter, type CountedCode, isDuplicateKeyError } from '@qm/platform';
import type { OtpPurpose, OtpRecord } from '../domain/otp';
import { OTP_PURPOSES, OTP_RESEND_MS, VERIFIED_WINDOW_MS } from '../domain/otp';

const otpSchema = new Schema<OtpRecord>(
  {
    userId: { type: Number, required: true },
    purpose: { type: String, enum: OTP_PURPOSES, required: true },
    codeHash: { type: String, required: true },
    salt: { type: String, required: true },
    expiresAt: { type: Date, required: true },
    attempts: { type: Number, default: 0 },
    sentAt: { type: Date, required: true },
    verifiedAt: { type: Date, default: null },
    currentPasswordVerifiedAt: { type: Date, default: null },
    newEmail: { type: String, default: null },
  },
  { collection: 'otps', versionKey: false, strict: true },
);
// One live code per user and purpose; expiry is checked in code and swept (no TTL index).
otpSchema.index({ userId: 1, purpose: 1 }, { unique: true });
otpSchema.index({ expiresAt: 1 });

/** The one-time codes (collection `otps`): one live code per user and purpose. */
export interface OtpStore {
  /** Builds the model's indexes. */
  init(): Promise<HydratedDocument<OtpRecord>>;
  find(userId: number, purpose: OtpPurpose): Promise<(OtpRecord & { _id: unknown }) | null>;
  /**
   * Stores a new code unless one was sent in the last 30 s. Atomic: the filter only matches an
   * old enough record, and the unique index refuses the insert an upsert would do otherwise.
   * Returns false when the cooldown refused it.
   */
  replace(record: OtpRecord, now: Date): Promise<boolean>;
  /**
   * The code of (userId, purpose) for `checkCountFirst`: an attempt is taken with one conditional
   * update before any comparison (atomic on every store engine, ADR 008).
   */
  counted(userId: number, purpose: OtpPurpose): CountedCode<OtpRecord>;
  markVerified(rec: OtpRecord, at: Date): Promise<void>;
  /** False when no code of (userId, purpose) is stored. */
  markCurrentPasswordVerified(userId: number, purpose: OtpPurpose, at: Date): Promise<boolean>;
  /** Uses the code up; false if someone else consumed or replaced it first. */
  consume(rec: OtpRecord): Promise<boolean>;
  removeForUser(userId: number): Promise<void>;
  remove(userId: number, purpose: OtpPurpose): Promise<void>;
  /** Codes nobody can use any more: expired and not within a verified window. Resolves to how many went. */
  sweep(now: Date): Promise<number>;
}

export function createOtpStore(conn: Connection): OtpStore {
  const Otps = conn.model<OtpRecord>('Otp', otpSchema);

  return {
    init: () => Otps.init(),
    find: (userId: number, purpose: OtpPurpose) =>
      Otps.findOne({ userId, purpose }).lean<OtpRecord & { _id: unknown }>().exec(),
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
    counted(userId: number, purpose: OtpPurpose): CountedCode<OtpRecord> {
      return {
        reserveAttempt: (now) =>
          Otps.findOneAndUpdate(
            { userId, purpose, ...attemptOpenFilter(now) },
            { $inc: { attempts: 1 } },
            { new: true },
          )
            .lean<OtpRecord>()
            .exec(),
        current: () => Otps.findOne({ userId, purpose }).lean<OtpRecord>().exec(),
        async refundAttempt(rec) {
          await Otps.updateOne(
            { userId, purpose, codeHash: rec.codeHash, attempts: { $gt: 0 } },
            { $inc: { attempts: -1 } },
          );
        },
      };
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
    async sweep(now: Date): Promise<number> {
      const res = await Otps.deleteMany({
        expiresAt: { $lt: now },
        $or: [{ verifiedAt: null }, { verifiedAt: { $lt: new Date(now.getTime() - VERIFIED_WINDOW_MS) } }],
      });
      return res.deletedCount;
    },
  };
}
