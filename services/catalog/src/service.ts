import { CATALOG_SUBJECTS } from '@qm/contracts/events';
import { type EventEnvelope, createOutbox, type ServiceDefinition } from '@qm/platform';
import { serviceDefaults } from '@qm/roster';
import { z } from 'zod';
import { createCatalog } from './catalog';
import { confirmer } from './events/catalog-events';
import { consumeUserDeleted, DEFAULT_USER_DELETED_DURABLE } from './events/identity';
import { addCatalogService } from './server';
import { createProductStore } from './store/products';
import { createReservationStore } from './store/reservations';
import { databaseReader, memoryReader } from './store/read-model';

export const catalogEnv = {
  /**
   * memory (default): lists and searches are answered from an in-memory copy of the catalogue kept
   * current by this service's writes and its replicas' change events. database: every read is a
   * query on the indexes (real MongoDB with a catalogue too large to hold in memory).
   */
  CATALOG_READ_MODEL: z.enum(['memory', 'database']).default('memory'),
  /** How often the in-memory copy is re-read in full as a safety net; 0 turns that off. */
  CATALOG_RESYNC_MS: z.coerce.number().int().min(0).default(300_000),
  /** Durable name of the identity.user.deleted consumer (tests use their own). */
  CATALOG_USER_DELETED_DURABLE: z.string().min(1).default(DEFAULT_USER_DELETED_DURABLE),
  OUTBOX_RELAY_MS: z.coerce.number().int().min(100).default(2000),
};

/** The catalog service (port and database: @qm/roster): products of spec §3. */
export const catalogService: ServiceDefinition<typeof catalogEnv> = {
  ...serviceDefaults('catalog'),
  env: catalogEnv,
  async setup({ config, log, conn, bus, grpc }) {
    const store = createProductStore(conn);
    await store.init();
    const reservations = createReservationStore(conn, store);
    await reservations.init();
    const memory = config.CATALOG_READ_MODEL === 'memory';
    const reader = memory ? memoryReader(store) : databaseReader(store);
    if (memory) {
      const started = Date.now();
      await reader.resync();
      log.info({ products: reader.size, ms: Date.now() - started }, 'catalogue loaded into memory');
    }

    const outbox = createOutbox({
      conn,
      bus,
      log,
      confirm: confirmer(store, reservations),
      intervalMs: config.OUTBOX_RELAY_MS,
    });
    outbox.start();

    // Events this process published: its replicas' sync below skips them.
    const own = new Map<string, number>();
    const catalog = createCatalog({
      store,
      reservations,
      reader,
      outbox,
      log,
      publishing: memory ? (ids) => ids.forEach((id) => own.set(id, Date.now())) : undefined,
    });
    addCatalogService(grpc, catalog);

    await consumeUserDeleted({
      bus,
      conn,
      log,
      durable: config.CATALOG_USER_DELETED_DURABLE,
      removeProductsOf: (userId) => catalog.removeProductsOf(userId),
    });

    if (!memory) return () => outbox.stop();

    // Other replicas' changes: re-read the product they announce (core NATS sees JetStream messages).
    const unlisten = bus.listen('catalog.product.>', (raw, subject) => {
      const event = raw as EventEnvelope<{ id?: number }>;
      if (own.delete(event.id)) return;
      const id = event.data?.id;
      if (typeof id !== 'number') return;
      if (subject === CATALOG_SUBJECTS.deleted) reader.removed(id);
      else
        reader
          .refresh(id)
          .catch((e: unknown) => log.warn({ err: e, id }, 'could not refresh a changed product'));
    });
    const resync =
      config.CATALOG_RESYNC_MS > 0
        ? setInterval(() => {
            const cutoff = Date.now() - 60_000;
            for (const [id, at] of own) if (at < cutoff) own.delete(id);
            reader.resync().catch((err: unknown) => log.warn({ err }, 'catalogue resync failed'));
          }, config.CATALOG_RESYNC_MS)
        : undefined;
    resync?.unref();

    return () => {
      outbox.stop();
      unlisten();
      if (resync) clearInterval(resync);
    };
  },
};
