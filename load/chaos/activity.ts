import { ACTIVITY_SUBJECT } from '@qm/contracts/events';
import type { Db } from 'mongodb';
import { JSONCodec, type JetStreamClient, type JetStreamManager } from 'nats';

/**
 * Every activity event stored once: each activity.recorded event on the stream (whoever published
 * it, however often) must be in the activity log exactly once — the log's `_id` is the event id, so
 * a redelivery cannot store it twice, and a lost one shows as missing. Events the relays published
 * twice after a crash (past JetStream's duplicate window) are counted: the store must absorb them.
 */
export interface ActivityReport {
  events: number;
  publishedTwice: number;
  stored: number;
  missing: string[];
  /** Activities that posted transfers announce (a P2P transfer, a top-up), and those not in the log. */
  announced: number;
  unannounced: string[];
}

/** The activity events a posted transfer carries (store/transfers.ts `announcements`). */
async function announcedByTransfers(walletDb: Db): Promise<string[]> {
  const transfers = walletDb.collection<{ announcements?: { subject: string; event: { id: string } }[] }>(
    'transfers',
  );
  const ids: string[] = [];
  for await (const t of transfers.find({ state: 'posted' }, { projection: { announcements: 1 } }))
    for (const a of t.announcements ?? []) if (a.subject === ACTIVITY_SUBJECT) ids.push(a.event.id);
  return ids;
}

const codec = JSONCodec<{ id: string }>();

export async function checkActivity(
  { js, jsm, prefix }: { js: JetStreamClient; jsm: JetStreamManager; prefix: string },
  activityDb: Db,
  walletDb: Db,
): Promise<ActivityReport> {
  const stream = `${prefix}_QM_ACTIVITY`;
  const info = await jsm.streams.info(stream);
  const seen = new Map<string, number>();
  if (info.state.messages > 0) {
    const consumer = await js.consumers.get(stream, { filterSubjects: [`${prefix}.${ACTIVITY_SUBJECT}`] });
    const messages = await consumer.consume();
    for await (const m of messages) {
      const id = codec.decode(m.data).id;
      seen.set(id, (seen.get(id) ?? 0) + 1);
      if (m.info.pending === 0) break;
    }
    await messages.close();
  }
  const ids = [...seen.keys()];
  const announced = await announcedByTransfers(walletDb);
  const found = await storedOf(activityDb, [...new Set([...ids, ...announced])]);
  return {
    events: ids.length,
    publishedTwice: [...seen.values()].filter((n) => n > 1).length,
    stored: ids.filter((id) => found.has(id)).length,
    missing: ids.filter((id) => !found.has(id)),
    // A transfer posted by a process that died before publishing is announced by the sweeper that
    // finishes it; one never announced would be on no stream, so the log is asked directly.
    announced: announced.length,
    unannounced: announced.filter((id) => !found.has(id)),
  };
}

/** Which of `ids` the activity log holds. */
async function storedOf(activityDb: Db, ids: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  const activities = activityDb.collection<{ _id: string }>('activities');
  for (let i = 0; i < ids.length; i += 1000)
    for await (const a of activities.find(
      { _id: { $in: ids.slice(i, i + 1000) } },
      { projection: { _id: 1 } },
    ))
      found.add(a._id);
  return found;
}
