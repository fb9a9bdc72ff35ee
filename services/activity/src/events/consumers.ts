import { ACTIVITY_SUBJECT, streamOf } from '@qm/contracts/events';
import type { BackgroundWork, Delivery, EventEnvelope } from '@qm/platform';

/**
 * What the activity service hears: activity.recorded from every service, through one durable
 * consumer (at least once; the recorder stores each event id once), in batches of what is waiting.
 */
export function activityConsumers(opts: {
  durable: string;
  /** ACTIVITY_GATHER_MS: how long a batch waits for more records to join it. */
  gatherMs: number;
  record(events: ({ event: EventEnvelope } & Delivery)[]): Promise<void>;
}): BackgroundWork {
  return {
    consumers: [
      {
        stream: streamOf('activity').name,
        durable: opts.durable,
        filterSubjects: [ACTIVITY_SUBJECT],
        handle: (event, _subject, delivery) =>
          opts.record([{ event, mayRepeat: delivery?.mayRepeat ?? true }]),
        handleBatch: (batch) => opts.record(batch),
        gatherMs: opts.gatherMs,
      },
    ],
  };
}
