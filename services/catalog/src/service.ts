import { createOutbox, type ServiceDefinition } from '@qm/platform';
import { createCatalog } from './app/catalog';
import { serviceDefaults } from '@qm/roster';
import { catalogEnv } from './config';
import { confirmer } from './events/catalog-events';
import { catalogConsumers } from './events/consumers';
import { replicaSync } from './events/replica-sync';
import { addCatalogService } from './server';
import { createProductStore } from './store/products';
import { databaseReader, memoryReader } from './store/read-model';
import { createReservationStore } from './store/reservations';

export { catalogEnv } from './config';

/** The catalog service (port and database: @qm/roster): products of docs/product.md §3. */
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

    // Only an in-memory copy needs the other replicas' changes.
    const sync = memory ? replicaSync(reader, log, config.CATALOG_RESYNC_MS) : undefined;
    const catalog = createCatalog({ store, reservations, reader, outbox, log, publishing: sync?.publishing });
    addCatalogService(grpc, catalog);

    return {
      ...catalogConsumers({
        conn,
        log,
        catalog,
        userDeletedDurable: config.CATALOG_USER_DELETED_DURABLE,
        sync,
      }),
      stop: () => outbox.stop(),
    };
  },
};
