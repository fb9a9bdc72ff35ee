import type { EventEnvelope, ListenerSpec, Logger, PeriodicJob } from '@qm/platform';
import type { ProductReader } from '../store/read-model';
import { CATALOG_PRODUCT_NOTICES, CATALOG_SUBJECTS as SUBJECTS } from '@qm/contracts/events';

/** How long an own event id is remembered when its echo never arrives. */
const OWN_EVENT_TTL_MS = 60_000;

/** What replicaSync gives the service: its core-NATS listener, its periodic job and its own-event memo. */
export interface ReplicaSync {
  listener: ListenerSpec;
  resync: PeriodicJob;
  /** Tells the sync the ids of events this process is about to publish. */
  publishing(eventIds: string[]): void;
}

/**
 * Keeps this replica's in-memory catalogue current with the other replicas' changes: it re-reads
 * each product they announce (notices, on core NATS: docs/adr/050) and skips the events this
 * process published itself, with a periodic full resync as the safety net for missed ones.
 */
export function replicaSync(reader: ProductReader, log: Logger, resyncMs: number): ReplicaSync {
  /** Events this process published, by id, with when. */
  const own = new Map<string, number>();

  const listener: ListenerSpec = {
    subject: CATALOG_PRODUCT_NOTICES,
    handle(raw, subject) {
      const event = raw as EventEnvelope<{ id?: number }>;
      if (own.delete(event.id)) return;
      const id = event.data?.id;
      if (typeof id !== 'number') return;
      if (subject === SUBJECTS.deleted) reader.removed(id);
      else
        reader
          .refresh(id)
          .catch((e: unknown) => log.warn({ err: e, id }, 'could not refresh a changed product'));
    },
  };

  const resync: PeriodicJob = {
    name: 'catalogue resync',
    everyMs: resyncMs,
    run() {
      const cutoff = Date.now() - OWN_EVENT_TTL_MS;
      for (const [id, at] of own) if (at < cutoff) own.delete(id);
      return reader.resync();
    },
  };

  return {
    listener,
    resync,
    publishing(eventIds: string[]): void {
      for (const id of eventIds) own.set(id, Date.now());
    },
  };
}
