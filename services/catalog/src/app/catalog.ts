import { catalogV1, PRODUCT_MESSAGES as MSG } from '@qm/contracts';
import {
  AppError,
  type Caller,
  conflict,
  GrpcStatus,
  type Logger,
  notFound,
  type Outbox,
} from '@qm/platform';
import { parseListRequest, type Searchable } from './domain/listing';
import {
  assertMayAdjust,
  assertMayCreate,
  assertMayDelete,
  assertMayEdit,
  DEFAULT_STATUS,
  type ProductRecord,
  requireCaller,
  toProto,
  validChanges,
  validDelta,
  validId,
  validNewProduct,
  validVersion,
} from './domain/product';
import {
  assertOrdersService,
  expiryOf,
  reservationToProto,
  STOCK_MESSAGES as STOCK,
  validQuantity,
  validReference,
} from './domain/stock';
import * as ev from './events/catalog-events';
import type { ProductReader } from './store/read-model';
import type { ProductStore } from './store/products';
import type { ReservationStore } from './store/reservations';

export interface CatalogDeps {
  store: ProductStore;
  reservations: ReservationStore;
  reader: ProductReader;
  outbox: Outbox;
  log: Logger;
  /** Told the ids of the events this process publishes (so replicas' sync can skip its own). */
  publishing?(eventIds: string[]): void;
}

/** A change that turned out to have nothing to announce: its events are dropped (outbox.run). */
class NotApplied<T> extends Error {
  constructor(readonly outcome: T) {
    super('not applied');
  }
}

/** Runs a change whose outcome may be "nothing happened"; returns the outcome either way. */
async function outcomeOf<T>(
  run: (fn: () => Promise<T>) => Promise<T>,
  fn: () => Promise<T>,
  applied: (o: T) => boolean,
) {
  try {
    return await run(async () => {
      const o = await fn();
      if (!applied(o)) throw new NotApplied(o);
      return o;
    });
  } catch (err) {
    if (err instanceof NotApplied) return err.outcome as T;
    throw err;
  }
}

/**
 * Products in the read model are immutable (a change replaces the object), so each one's message is
 * built once however often it is listed.
 */
const messages = new WeakMap<ProductRecord, catalogV1.Product>();
function protoOf(p: ProductRecord): catalogV1.Product {
  let m = messages.get(p);
  if (!m) messages.set(p, (m = toProto(p)));
  return m;
}

/** How many products one outbox batch of the account-deletion cascade removes. */
const CASCADE_BATCH = 100;

/**
 * The catalog's use cases: authorise with the caller, apply the domain rules, change the store
 * with its events through the outbox, keep the read side current, record the user's activity.
 */
export function createCatalog({ store, reservations, reader, outbox, log, publishing }: CatalogDeps) {
  async function change<T>(events: ev.Outgoing[], fn: () => Promise<T>): Promise<T> {
    publishing?.(events.map((e) => e.event.id));
    return outbox.run(events, fn);
  }

  /**
   * A view changes nothing, so its activity is published at once (through the outbox only if that
   * fails); a change's activity travels in the change's own outbox batch instead. Failing to record
   * a view never fails the request.
   */
  async function recordActivity(...args: Parameters<typeof ev.activity>): Promise<void> {
    await outbox
      .publish([ev.activity(...args)])
      .catch((err: unknown) => log.warn({ err, action: args[1] }, 'activity not recorded'));
  }

  /** A product found missing while changing it is gone from the read side too. */
  const forgetIfGone = (id: number) => (err: unknown) => {
    if (err instanceof AppError && err.code === GrpcStatus.NOT_FOUND) reader.removed(id);
    throw err;
  };

  async function existing(id: number): Promise<Searchable> {
    const product = await reader.get(validId(id));
    if (!product) throw notFound(MSG.notFound);
    return product;
  }

  return {
    async list(caller: Caller | undefined, req: catalogV1.ListProductsRequest) {
      requireCaller(caller);
      const { filter, paging } = parseListRequest(req);
      // Read together with the listing below (no await between them in the memory read model).
      const etag = reader.etag();
      if (etag && req.ifNoneMatch === etag)
        return { products: [], total: 0, nextBeforeId: 0, etag, notModified: true };
      const out = await reader.list(filter, paging);
      return {
        products: out.products.map(protoOf),
        total: out.total,
        nextBeforeId: out.nextBeforeId,
        etag,
        notModified: false,
      };
    },

    async get(caller: Caller | undefined, req: catalogV1.GetProductRequest) {
      const who = requireCaller(caller);
      const product = await existing(req.id);
      if (req.recordView) await recordActivity(who, 'product_view', product);
      return { product: protoOf(product) };
    },

    async create(caller: Caller | undefined, req: catalogV1.CreateProductRequest) {
      const who = requireCaller(caller);
      assertMayCreate(who);
      const fields = validNewProduct(req);
      const now = new Date();
      const record: ProductRecord = {
        id: await store.nextId(),
        ...fields,
        manufacturerId: who.userId,
        status: DEFAULT_STATUS,
        createdAt: now,
        updatedAt: now,
        version: 1,
      };
      const saved = await change([ev.created(record), ev.activity(who, 'product_create', record)], () =>
        store.insert(record),
      );
      reader.saved(saved);
      return { product: toProto(saved) };
    },

    async update(caller: Caller | undefined, req: catalogV1.UpdateProductRequest) {
      const who = requireCaller(caller);
      const changes = validChanges(req);
      const version = validVersion(req.version);
      const current = await existing(req.id);
      assertMayEdit(who, current);
      const now = new Date();
      const event = ev.updated({
        id: current.id,
        manufacturerId: current.manufacturerId,
        changes,
        updatedAt: now.toISOString(),
      });
      const activity = ev.activity(
        who,
        'product_update',
        { ...current, ...changes },
        Object.keys(changes).join(', '),
      );
      const saved = await change([event, activity], async () => {
        const after = await store.update(current.id, who.userId, version, changes, now);
        if (after.kind === 'applied') return after.product;
        throw after.kind === 'missing' ? notFound(MSG.notFound) : conflict(MSG.changedElsewhere);
      }).catch(forgetIfGone(current.id));
      reader.saved(saved);
      return { product: toProto(saved) };
    },

    async remove(caller: Caller | undefined, req: catalogV1.DeleteProductRequest) {
      const who = requireCaller(caller);
      const current = await existing(req.id);
      assertMayDelete(who, current);
      const deleted = [
        ev.deleted(current, current.manufacturerId, 'owner'),
        ev.activity(who, 'product_delete', current),
      ];
      await change(deleted, async () => {
        if (!(await store.remove(current.id, who.userId))) throw notFound(MSG.notFound);
      }).catch(forgetIfGone(current.id));
      reader.removed(current.id);
      return {};
    },

    /** The owner's own stock movement (restocking, a count correction). */
    async adjustStock(caller: Caller | undefined, req: catalogV1.AdjustStockRequest) {
      const who = requireCaller(caller);
      const delta = validDelta(req.delta);
      const current = await existing(req.id);
      assertMayAdjust(who, current);
      const now = new Date();
      const event = ev.updated({
        id: current.id,
        manufacturerId: current.manufacturerId,
        stockDelta: delta,
        updatedAt: now.toISOString(),
      });
      const signed = delta > 0 ? `+${delta}` : String(delta);
      const activity = ev.activity(who, 'product_update', current, `stock ${signed}`);
      const saved = await change([event, activity], async () => {
        const moved = await store.move(current.id, delta, now);
        if ('product' in moved) return moved.product;
        if (moved.kind === 'missing') throw notFound(MSG.notFound);
        throw conflict(moved.kind === 'insufficient' ? MSG.insufficientStock : MSG.stockRange);
      }).catch(forgetIfGone(current.id));
      reader.saved(saved);
      return { product: toProto(saved) };
    },

    /** Orders service: takes stock for a purchase under its reference (once per reference). */
    async reserveStock(service: string | undefined, req: catalogV1.ReserveStockRequest) {
      assertOrdersService(service);
      const quantity = validQuantity(req.quantity);
      const reference = validReference(req.reference);
      const now = new Date();
      const expiresAt = expiryOf(req.ttlSeconds, now);
      const current = await existing(req.productId);
      const event = ev.updated({
        id: current.id,
        manufacturerId: current.manufacturerId,
        stockDelta: -quantity,
        reference,
        movement: 'reserve',
        updatedAt: now.toISOString(),
      });
      const o = await outcomeOf(
        (fn) => change([event], fn),
        () => reservations.reserve(current.id, quantity, reference, expiresAt, now),
        (o) => o.kind === 'reserved',
      );
      switch (o.kind) {
        case 'missing':
          reader.removed(current.id);
          throw notFound(MSG.notFound);
        case 'insufficient':
          throw conflict(MSG.insufficientStock);
        case 'reference-reused':
          throw conflict(STOCK.referenceReused);
      }
      if (o.product) reader.saved(o.product);
      return {
        product: o.product ? toProto(o.product) : undefined,
        reservation: reservationToProto(o.reservation),
      };
    },

    /** Orders service: puts a reservation's stock back (a second release has no effect). */
    async releaseStock(service: string | undefined, req: catalogV1.ReleaseStockRequest) {
      assertOrdersService(service);
      const reference = validReference(req.reference);
      // Read to describe the change in its event; the release itself is conditional on the state.
      const reservation = await reservations.find(reference);
      if (!reservation) throw notFound(STOCK.unknownReservation);
      const product = await reader.get(reservation.productId);
      const now = new Date();
      const events = product
        ? [
            ev.updated({
              id: product.id,
              manufacturerId: product.manufacturerId,
              stockDelta: reservation.quantity,
              reference,
              movement: 'release',
              updatedAt: now.toISOString(),
            }),
          ]
        : [];
      const o = await outcomeOf(
        (fn) => change(events, fn),
        () => reservations.release(reference, now),
        (o) => o.kind === 'released',
      );
      switch (o.kind) {
        case 'unknown':
          throw notFound(STOCK.unknownReservation);
        case 'committed':
          throw conflict(STOCK.alreadyCommitted);
        case 'not-reserved':
          throw conflict(STOCK.notReserved);
      }
      if (o.product) reader.saved(o.product);
      else if (product) reader.removed(product.id);
      return {
        product: o.product ? toProto(o.product) : undefined,
        reservation: reservationToProto(o.reservation),
      };
    },

    /** Orders service: the purchase went through; the reservation stays taken. */
    async commitStock(service: string | undefined, req: catalogV1.CommitStockRequest) {
      assertOrdersService(service);
      const o = await reservations.commit(validReference(req.reference), new Date());
      switch (o.kind) {
        case 'unknown':
          throw notFound(STOCK.unknownReservation);
        case 'released':
          throw conflict(STOCK.alreadyReleased);
        case 'not-reserved':
          throw conflict(STOCK.notReserved);
      }
      return { reservation: reservationToProto(o.reservation) };
    },

    /** The account-deletion cascade: every product of the manufacturer, in batches. */
    async removeProductsOf(manufacturerId: number): Promise<number> {
      let removed = 0;
      for (;;) {
        const batch = await store.ofManufacturer(manufacturerId, CASCADE_BATCH);
        if (!batch.length) return removed;
        const ids = batch.map((p) => p.id);
        const n = await change(
          batch.map((p) => ev.deleted(p, manufacturerId, 'account-deleted')),
          () => store.removeMany(ids, manufacturerId),
        );
        ids.forEach((id) => reader.removed(id));
        removed += n;
        if (n === 0) throw new Error(`products of ${manufacturerId} found but not deleted; will retry`);
      }
    },
  };
}

export type Catalog = ReturnType<typeof createCatalog>;
