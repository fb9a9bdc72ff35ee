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

export type SignOutStore = ReturnType<typeof createSignOutStore>;

export function createSignOutStore(conn: Connection) {
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
    async retryAt(id: string, attempts: number, at: Date): Promise<void> {
      await jobs.updateOne({ _id: id }, { $set: { attempts, nextAttemptAt: at } });
    },
    find: (id: string) => jobs.findOne({ _id: id }),
  };
}
