import { createHash } from 'node:crypto';
import type { Collection } from 'mongodb';
import type { Connection } from 'mongoose';
import { AppError, GrpcStatus } from './errors';
import { isDuplicateKeyError } from './mongo';
import { windowedSweep, windowOf } from './windows';

/**
 * Idempotency keys with Stripe's semantics for money-moving calls (docs/adr/006): the first outcome
 * of (caller, key) is stored for at least `ttlMs`; the same key with the same request answers it
 * again without running anything; the same key with a different request is refused, naming the
 * fields that differ. Fields are stored as hashes, so a PIN in a request is never kept.
 *
 * A call still running under the key is refused as ABORTED; one whose process died (its claim older
 * than `staleMs`) is run again — the effect it drives must itself be keyed on the same key (the
 * ledger's transfer key), so a rerun finishes the first attempt instead of repeating it.
 * Errors a retry may cure (unavailable, timeouts, internal) are not stored as the outcome: the key
 * is kept for a retry, which runs again at once, with the same request only.
 */
export interface IdempotencyRecord {
  _id: string;
  fields: Record<string, string>;
  /** `retry`: the last run failed in a way a retry may cure; the next call with the key runs again. */
  state: 'running' | 'done' | 'retry';
  outcome?: { ok: true; value: unknown } | { ok: false; code: number; message: string };
  claimedAt: Date;
  expiresAt: Date;
  /** The window of EXPIRY_WINDOW_MS `expiresAt` falls in: the sweep deletes a window at a time. */
  expiresWindow: number;
}

const EXPIRY_WINDOW_MS = 10 * 60_000;

/** A key claimed by this call (with when, and whether a run may have been under it before), or held. */
type Claimed = { claimedAt: Date; rerun: boolean };
type Claim = Claimed | { held: IdempotencyRecord };

/** A record's expiry, and the window the sweep finds it by. */
const expiring = (at: Date) => ({ expiresAt: at, expiresWindow: windowOf(at, EXPIRY_WINDOW_MS) });

export interface IdempotencyOptions {
  conn: Connection;
  ttlMs?: number;
  staleMs?: number;
  messages: { inProgress: string; mismatch: (fields: string[]) => string };
}

const RETRYABLE = new Set([
  GrpcStatus.UNAVAILABLE,
  GrpcStatus.DEADLINE_EXCEEDED,
  GrpcStatus.INTERNAL,
  GrpcStatus.ABORTED,
]);

const fingerprint = (request: Record<string, unknown>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(request).map(([k, v]) => [
      k,
      createHash('sha256')
        .update(JSON.stringify(v ?? null))
        .digest('base64url'),
    ]),
  );

/** What `run` tells the work it runs. */
export interface Attempt {
  /**
   * An earlier run under the key may have begun the work: it died, failed in a way a retry may
   * cure, or the key expired and is used again. False on a key's first run, and without a key: only
   * a rerun has an earlier effect to look for.
   */
  rerun: boolean;
}

/** What `runOwnRecord` tells the work it runs. */
export interface OwnRecordAttempt extends Attempt {
  /** This call holds the key: it may make the effect. A repeat only finds and answers it. */
  holder: boolean;
}

export interface Idempotency {
  /**
   * Runs `fn` at most once per (scope, key) and request; without a key it just runs. `scope` is
   * the caller (a user id) plus the operation, so keys of different callers never meet.
   */
  run<T>(
    scope: string,
    key: string | undefined,
    request: Record<string, unknown>,
    fn: (attempt: Attempt) => Promise<T>,
  ): Promise<T>;
  /**
   * As `run`, for work whose effect is stored under the key itself (unique) and answers for it
   * (docs/adr/045): the key is claimed, so only one call makes the effect, but no answer is stored when
   * it succeeds. A call with the same request while the key is held, or after, is run as a repeat
   * (`holder: false`): it finds the effect under the key and answers it, and must not make one (then
   * `inProgress()` is its answer). A refusal of the holder is stored and answered again, as by `run`.
   */
  runOwnRecord<T>(
    scope: string,
    key: string | undefined,
    request: Record<string, unknown>,
    fn: (attempt: OwnRecordAttempt) => Promise<T>,
  ): Promise<T>;
  /** The refusal of a call whose key is held by a run still under way. */
  inProgress(): AppError;
  /** Drops keys past their time (a periodic job); how many it dropped. */
  sweep(now?: Date): Promise<number>;
}

type Records = Collection<IdempotencyRecord>;

function differing(stored: Record<string, string>, now: Record<string, string>): string[] {
  const names = new Set([...Object.keys(stored), ...Object.keys(now)]);
  return [...names].filter((n) => stored[n] !== now[n]).sort();
}

/**
 * Keys live a day and the sweep runs every few minutes: asked by a range, every key of the day
 * would be read at every run on the local engine (ADR 004). After catching up once (which also
 * takes keys written before windows), it deletes each window once it has passed.
 */
const expirySweep = (records: Records) =>
  windowedSweep({
    windowMs: EXPIRY_WINDOW_MS,
    catchUpEveryMs: 24 * 60 * 60_000,
    async catchUp(due) {
      const r = await records.deleteMany({ expiresAt: { $lt: due } });
      return { handled: r.deletedCount, complete: true };
    },
    window: async (window) => (await records.deleteMany({ expiresWindow: window })).deletedCount,
  });

/** Stores how the holder's run ended: a refusal as the outcome, a failure a retry may cure as `retry`. */
async function recordFailure(records: Records, id: string, mine: Claimed, err: unknown): Promise<void> {
  if (err instanceof AppError && !RETRYABLE.has(err.code)) {
    await records.updateOne(
      { _id: id },
      { $set: { state: 'done', outcome: { ok: false, code: err.code, message: err.message } } },
    );
  } else {
    // Kept, so its retry knows a run was here (only this claim's: another may have retaken a stale one).
    await records.updateOne(
      { _id: id, state: 'running', claimedAt: mine.claimedAt },
      { $set: { state: 'retry' } },
    );
  }
}

export function createIdempotency(opts: IdempotencyOptions): Idempotency {
  const ttlMs = opts.ttlMs ?? 24 * 60 * 60_000;
  const staleMs = opts.staleMs ?? 30_000;
  const records = opts.conn.collection<IdempotencyRecord>('idempotency_keys');

  const sweepExpired = expirySweep(records);

  /**
   * Claims the key (answering when, and whether a run may have been under it before), or answers
   * the record that holds it.
   */
  async function claim(id: string, fields: Record<string, string>): Promise<Claim> {
    const now = new Date();
    try {
      await records.insertOne({
        _id: id,
        fields,
        state: 'running',
        claimedAt: now,
        ...expiring(new Date(now.getTime() + ttlMs)),
      });
      return { claimedAt: now, rerun: false };
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
    }
    const existing = await records.findOne({ _id: id });
    if (!existing) return claim(id, fields);
    if (existing.expiresAt < now) {
      // An expired key starts afresh (the sweep may not have removed it yet).
      const taken = await records.findOneAndReplace(
        { _id: id, expiresAt: existing.expiresAt },
        { fields, state: 'running', claimedAt: now, ...expiring(new Date(now.getTime() + ttlMs)) },
      );
      return taken ? { claimedAt: now, rerun: true } : claim(id, fields);
    }
    return { held: existing };
  }

  /** Takes over a key whose run failed for a retry or died (its claim stale), if no one else did. */
  async function retake(existing: IdempotencyRecord): Promise<Claimed | null> {
    const retry = existing.state === 'retry' || Date.now() - existing.claimedAt.getTime() > staleMs;
    if (!retry) return null;
    const claimedAt = new Date();
    const { modifiedCount } = await records.updateOne(
      { _id: existing._id, claimedAt: existing.claimedAt },
      { $set: { state: 'running', claimedAt } },
    );
    return modifiedCount === 1 ? { claimedAt, rerun: true } : null;
  }

  /** The key claimed, or held by a run with the same request; another request is refused. */
  async function claimFor(id: string, fields: Record<string, string>): Promise<Claim> {
    const claimed = await claim(id, fields);
    if ('held' in claimed) {
      const diff = differing(claimed.held.fields, fields);
      if (diff.length > 0) throw new AppError(GrpcStatus.FAILED_PRECONDITION, opts.messages.mismatch(diff));
    }
    return claimed;
  }

  const inProgress = () => new AppError(GrpcStatus.ABORTED, opts.messages.inProgress);

  return {
    async run<T>(
      scope: string,
      key: string | undefined,
      request: Record<string, unknown>,
      fn: (attempt: Attempt) => Promise<T>,
    ): Promise<T> {
      if (!key) return fn({ rerun: false });
      const id = `${scope}:${key}`;
      const claimed = await claimFor(id, fingerprint(request));
      let mine: Claimed;
      if (!('held' in claimed)) mine = claimed;
      else {
        const existing = claimed.held;
        if (existing.state === 'done' && existing.outcome) {
          if (existing.outcome.ok) return existing.outcome.value as T;
          throw new AppError(existing.outcome.code as GrpcStatus, existing.outcome.message);
        }
        const retaken = await retake(existing);
        if (!retaken) throw inProgress();
        mine = retaken;
      }
      try {
        const value = await fn({ rerun: mine.rerun });
        await records.updateOne({ _id: id }, { $set: { state: 'done', outcome: { ok: true, value } } });
        return value;
      } catch (err) {
        await recordFailure(records, id, mine, err);
        throw err;
      }
    },

    async runOwnRecord<T>(
      scope: string,
      key: string | undefined,
      request: Record<string, unknown>,
      fn: (attempt: OwnRecordAttempt) => Promise<T>,
    ): Promise<T> {
      if (!key) return fn({ rerun: false, holder: true });
      const id = `${scope}:${key}`;
      const claimed = await claimFor(id, fingerprint(request));
      let mine: Claimed | null = null;
      if (!('held' in claimed)) mine = claimed;
      else {
        const { outcome } = claimed.held;
        if (outcome && !outcome.ok) throw new AppError(outcome.code as GrpcStatus, outcome.message);
        // Done by a run of an earlier build (its answer stored), running, or left for a retry: the
        // effect answers, and only a run that holds the key may make it.
        if (!outcome) mine = await retake(claimed.held);
      }
      if (!mine) return fn({ rerun: true, holder: false });
      try {
        return await fn({ rerun: mine.rerun, holder: true });
      } catch (err) {
        await recordFailure(records, id, mine, err);
        throw err;
      }
    },

    inProgress,

    sweep: (now = new Date()) => sweepExpired(now, now),
  };
}
