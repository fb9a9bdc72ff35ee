import type { EventBus, Logger } from '@qm/platform';
import { type Buffered, createLiveBuffer } from './buffer';
import { concerns, LIVE_SUBJECTS, toLiveEvent } from './events';

/** Where a stream's text goes (an Express response in the route). */
export interface LiveSink {
  write(chunk: string): unknown;
  end(): unknown;
}

export interface LiveStream {
  close(): void;
}

export interface LiveOptions {
  /** Open streams per user; one more is refused (the route answers 429). */
  maxStreamsPerUser?: number;
  heartbeatMs?: number;
  /** A stream ends after this long; the browser reconnects at once, re-checking its session. */
  maxStreamMs?: number;
  bufferEvents?: number;
  bufferMs?: number;
}

export interface LiveHub {
  /** Open streams of a user (for tests and metrics). */
  openStreams(userId: number): number;
  /**
   * Starts a user's stream on `sink`: what they missed since `lastEventId` (or `reset` when that
   * cannot be known), then their events as they come. Undefined when they have too many open.
   */
  open(userId: number, sink: LiveSink, lastEventId?: string): LiveStream | undefined;
  /** Stops listening to the bus and ends every open stream (shutdown). */
  close(): void;
}

/** How long a browser waits before reconnecting (the SSE `retry:` field). */
export const RETRY_MS = 3000;

const frame = (e: Buffered) =>
  `id: ${e.id}\nevent: ${e.event.type}\ndata: ${JSON.stringify(e.event.data)}\n\n`;

/**
 * The gateway's live events (docs/API.md "Live updates"): one subscription per process to the subjects of
 * events.ts, a buffer of the recent ones for reconnects, and the open streams by user.
 */
export function createLiveHub(opts: { bus: EventBus; log: Logger } & LiveOptions): LiveHub {
  const { bus, log } = opts;
  const maxPerUser = opts.maxStreamsPerUser ?? 5;
  const heartbeatMs = opts.heartbeatMs ?? 20_000;
  const maxStreamMs = opts.maxStreamMs ?? 10 * 60_000;
  const buffer = createLiveBuffer({ maxEvents: opts.bufferEvents, maxAgeMs: opts.bufferMs });
  const streams = new Map<number, Set<LiveSink>>();
  const open = new Set<LiveStream>();

  function deliver(entry: Buffered) {
    for (const [userId, sinks] of streams)
      if (concerns(entry.event, userId)) for (const sink of sinks) sink.write(frame(entry));
  }

  const unlisten = LIVE_SUBJECTS.map((subject) =>
    bus.listen(subject, (envelope, heard) => {
      const event = toLiveEvent(heard, envelope.data);
      if (event) deliver(buffer.push(event));
    }),
  );

  return {
    openStreams: (userId: number) => streams.get(userId)?.size ?? 0,

    open(userId: number, sink: LiveSink, lastEventId?: string): LiveStream | undefined {
      const own = streams.get(userId) ?? new Set<LiveSink>();
      if (own.size >= maxPerUser) return undefined;
      own.add(sink);
      streams.set(userId, own);

      let text = `retry: ${RETRY_MS}\n\n`;
      if (lastEventId) {
        const replay = buffer.after(lastEventId);
        if (replay === 'gap') text += 'event: reset\ndata: {}\n\n';
        else for (const e of replay.events) if (concerns(e.event, userId)) text += frame(e);
      }
      // An id without data sets the browser's Last-Event-ID without an event: a reconnect resumes
      // from here even if nothing of this user's came (heartbeats move it on likewise).
      text += `id: ${buffer.lastId()}\n\n`;
      sink.write(text);

      const heartbeat = setInterval(() => sink.write(`: heartbeat\nid: ${buffer.lastId()}\n\n`), heartbeatMs);
      const expiry = setTimeout(() => stream.close(), maxStreamMs);
      heartbeat.unref();
      expiry.unref();
      let closed = false;
      const stream: LiveStream = {
        close() {
          if (closed) return;
          closed = true;
          open.delete(stream);
          clearInterval(heartbeat);
          clearTimeout(expiry);
          own.delete(sink);
          if (!own.size && streams.get(userId) === own) streams.delete(userId);
          try {
            sink.end();
          } catch (err) {
            log.debug({ err }, 'live stream already gone');
          }
        },
      };
      open.add(stream);
      return stream;
    },

    close() {
      for (const stop of unlisten) stop();
      for (const stream of [...open]) stream.close();
    },
  };
}
