import { ACTIVITY_SUBJECT, streamOf } from '@qm/contracts/events';
import type { BackgroundWork } from '@qm/platform';
import type { Delivery } from '../app/recorder';

/**
 * What the activity service hears: activity.recorded from every service, through one durable
 * consumer (at least once; the recorder stores each event id once), in batches of what is waiting.
 */
export function activityConsumers(opts: {
  durable: string;
  record(deliveries: Delivery[]): Promise<void>;
}): BackgroundWork {
  return {
    consumers: [
      {
        stream: streamOf('activity').name,
        durable: opts.durable,
        filterSubjects: [ACTIVITY_SUBJECT],
        // One at a time is the fallback of a batch that failed, part of which may be stored.
        handle: (event) => opts.record([{ event, redelivered: true }]),
        handleBatch: (batch) => opts.record(batch),
      },
    ],
  };
}
