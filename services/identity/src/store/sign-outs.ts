import type { Connection } from 'mongoose';

/**
 * A pending "end every Keycloak session of this user", written in the same step as the password
 * change, removed once Keycloak confirmed it. Its id is the id of the sessions_revoked event.
 */
export interface SignOutJob {
  _id: string;
  userId: number;
  kcId: string;
  /** When the password changed: sessions begun before it must end. */
  notBefore: Date;
  attempts: number;
  nextAttemptAt: Date;
}

/** The sign-out jobs (collection `sign_outs`), due by `nextAttemptAt`. */
export interface SignOutStore {
  /** Creates the index; resolves to its name. */
  init(): Promise<string>;
  record(job: SignOutJob): Promise<void>;
  /** Keycloak confirmed the sign-out (or the password never changed): the job is gone. */
  done(id: string): Promise<void>;
  /** The jobs whose next attempt is due at `now`, earliest first, at most `limit` (100). */
  due(now: Date, limit?: number): Promise<SignOutJob[]>;
  /**
   * Takes a due job for one attempt: its next attempt moves to `until`, unless another sweeper
   * moved it since `job` was read. Of the replicas that read the same due job, one gets it.
   */
  claim(job: SignOutJob, until: Date): Promise<boolean>;
  retryAt(id: string, attempts: number, at: Date): Promise<void>;
  find(id: string): Promise<SignOutJob | null>;
}

export function createSignOutStore(conn: Connection): SignOutStore {
  const jobs = conn.collection<SignOutJob>('sign_outs');
  return {
    init: () => jobs.createIndex({ nextAttemptAt: 1 }),
    async record(job: SignOutJob): Promise<void> {
      await jobs.insertOne(job);
    },
    async done(id: string): Promise<void> {
      await jobs.deleteOne({ _id: id });
    },
    due: (now: Date, limit = 100) =>
      jobs
        .find({ nextAttemptAt: { $lte: now } })
        .sort({ nextAttemptAt: 1 })
        .limit(limit)
        .toArray(),
    async claim(job: SignOutJob, until: Date): Promise<boolean> {
      const r = await jobs.updateOne(
        { _id: job._id, nextAttemptAt: job.nextAttemptAt },
        { $set: { nextAttemptAt: until } },
      );
      return r.modifiedCount === 1;
    },
    async retryAt(id: string, attempts: number, at: Date): Promise<void> {
      await jobs.updateOne({ _id: id }, { $set: { attempts, nextAttemptAt: at } });
    },
    find: (id: string) => jobs.findOne({ _id: id }),
  };
}
