import { isDuplicateKeyError } from '@qm/platform';
import type { Connection } from 'mongoose';

/**
 * The settling windows whose transfers' markers the sweeper cleared (docs/adr/006, amendment of
 * 2026-12-07 "windows recorded instead of transfers"): a document per window that had transfers,
 * `started` by the process that clears it and then `done`, and `through`, the window up to which
 * every one is done (their documents then deleted). Replicas share it, so a window is cleared once;
 * a window a process left `started` when it died is taken over once its claim is stale.
 */
interface WindowRecord {
  _id: number;
  state: 'started' | 'done';
  at: Date;
}
interface ThroughRecord {
  _id: 'through';
  window: number;
}

/** Who is to clear a window: this process (`mine`), another one at it, or nobody (already `done`). */
export type Claim = 'mine' | 'taken' | 'done';

export interface MarkerWindows {
  /** Claims `window`: new, or its claim older than the stale time (the process that took it died). */
  claim(window: number, now: Date): Promise<Claim>;
  finish(window: number, now: Date): Promise<void>;
  /** The window up to which every window is done; undefined before the first catch-up finished. */
  through(): Promise<number | undefined>;
  /**
   * The windows after `through` that are recorded: `done`, `claimed` by a process at it, or `stale`
   * (claimed longer ago than the stale time: its process died).
   */
  recorded(now: Date): Promise<Map<number, 'done' | 'claimed' | 'stale'>>;
  /** Moves `through` to `window` (never back) and drops the records it now covers. */
  advance(window: number): Promise<void>;
}

export function createMarkerWindows(conn: Connection, opts: { staleMs?: number } = {}): MarkerWindows {
  const staleMs = opts.staleMs ?? 60_000;
  // One collection, seen as its two kinds of document.
  const windows = conn.collection<WindowRecord>('marker_windows');
  const throughDoc = conn.collection<ThroughRecord>('marker_windows');

  /** A claim made before this is stale. */
  const staleBefore = (now: Date) => new Date(now.getTime() - staleMs);
  // A few hundred documents at most: those since the last catch-up.
  const recorded = async (now: Date) => {
    const before = staleBefore(now);
    return new Map(
      (await windows.find({}).toArray())
        .filter((r) => typeof r._id === 'number')
        .map(
          (r) =>
            [r._id, r.state === 'done' ? 'done' : new Date(r.at) < before ? 'stale' : 'claimed'] as const,
        ),
    );
  };

  return {
    async claim(window, now) {
      try {
        await windows.insertOne({ _id: window, state: 'started', at: now });
        return 'mine';
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
      }
      const takenOver = await windows.findOneAndUpdate(
        { _id: window, state: 'started', at: { $lt: staleBefore(now) } },
        { $set: { at: now } },
      );
      if (takenOver) return 'mine';
      return (await windows.findOne({ _id: window }))?.state === 'done' ? 'done' : 'taken';
    },

    async finish(window, now) {
      await windows.updateOne({ _id: window }, { $set: { state: 'done', at: now } });
    },

    async through() {
      return (await throughDoc.findOne({ _id: 'through' }))?.window;
    },

    recorded,

    async advance(window) {
      await throughDoc.updateOne({ _id: 'through' }, { $max: { window } }, { upsert: true });
      const covered = [...(await recorded(new Date())).keys()].filter((w) => w <= window);
      if (covered.length > 0) await windows.deleteMany({ _id: { $in: covered } });
    },
  };
}
