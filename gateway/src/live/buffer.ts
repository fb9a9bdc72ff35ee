import { randomBytes } from 'node:crypto';
import type { LiveEvent } from './events';

export interface Buffered {
  /** The SSE id: `<this process's boot>-<sequence>`, increasing within one process. */
  id: string;
  seq: number;
  at: number;
  event: LiveEvent;
}

/** What a reconnecting stream missed: the events after its last id, or `gap` if they cannot be known. */
export type Replay = { events: Buffered[] } | 'gap';

export interface LiveBuffer {
  /** This process's part of every id; an id with another boot is from elsewhere. */
  readonly boot: string;
  /** Keeps `event` under the next id, dropping what is too many or too old. */
  push(event: LiveEvent): Buffered;
  /** The buffered events after `lastEventId`, oldest first, or `gap` when some may be lost. */
  after(lastEventId: string): Replay;
  /** The id a new stream starts from, so that a reconnect before any event resumes without a gap. */
  lastId(): string;
  /** How many events are kept (evicted lazily, so old ones may still count). */
  readonly size: number;
}

/**
 * The recent live events of this process, at most `maxEvents` of them and none older than `maxAgeMs`,
 * so that a browser reconnecting with Last-Event-ID gets what it missed. Ids carry the process's
 * boot so that an id from another replica or an earlier run is known as such (a `gap`).
 */
export function createLiveBuffer(opts: {
  maxEvents?: number;
  maxAgeMs?: number;
  now?: () => number;
  boot?: string;
}): LiveBuffer {
  const maxEvents = opts.maxEvents ?? 1000;
  const maxAgeMs = opts.maxAgeMs ?? 5 * 60_000;
  const now = opts.now ?? Date.now;
  const boot = opts.boot ?? `${now().toString(36)}${randomBytes(3).toString('hex')}`;
  const ring: Buffered[] = [];
  let lastSeq = 0;

  function evict() {
    const cutoff = now() - maxAgeMs;
    let drop = Math.max(0, ring.length - maxEvents);
    while (drop < ring.length && ring[drop]!.at < cutoff) drop++;
    if (drop) ring.splice(0, drop);
  }

  return {
    boot,
    push(event: LiveEvent): Buffered {
      const seq = ++lastSeq;
      const entry = { id: `${boot}-${seq}`, seq, at: now(), event };
      ring.push(entry);
      evict();
      return entry;
    },

    after(lastEventId: string): Replay {
      evict();
      const m = /^([0-9a-z]+)-(\d+)$/.exec(lastEventId);
      if (!m || m[1] !== boot) return 'gap';
      const seq = Number(m[2]);
      if (seq > lastSeq) return 'gap';
      // Everything after `seq` is still here when the oldest kept is no later than seq + 1.
      const oldest = ring[0]?.seq ?? lastSeq + 1;
      if (oldest > seq + 1) return 'gap';
      return { events: ring.filter((e) => e.seq > seq) };
    },

    lastId(): string {
      return `${boot}-${lastSeq}`;
    },

    get size() {
      return ring.length;
    },
  };
}
