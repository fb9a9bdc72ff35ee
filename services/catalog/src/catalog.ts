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
  validReference,
} from './domain/product';
import * as ev from './events/catalog-events';
import type { ProductReader } from './store/read-model';
import type { AdjustOutcome, ProductStore } from './store/products';

export interface CatalogDeps {
  store: ProductStore;
  reader: ProductReader;
  outbox: Outbox;
  log: Logger;
  /** Told the ids of the events this process publishes (so replicas' sync can skip its own). */
  publishing?(eventIds: string[]): void;
}

class NotApplied extends Error {
  constructor(readonly outcome: Exclude<AdjustOutcome, { kind: 'applied' }>) {
    super(outcome.kind);
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
export function createCatalog({ store, reader, outbox, log, publishing }: CatalogDeps) {
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
        const after = await store.update(current.id, who.userId, changes, now);
        if (!after) throw notFound(MSG.notFound);
        return after;
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

    async adjustStock(caller: Caller | undefined, req: catalogV1.AdjustStockRequest) {
      const who = requireCaller(caller);
      const delta = validDelta(req.delta);
      const reference = validReference(req.reference);
      const current = await existing(req.id);
      assertMayAdjust(who, current, reference);
      const now = new Date();
      const event = ev.updated({
        id: current.id,
        manufacturerId: current.manufacturerId,
        stockDelta: delta,
        ...(reference ? { reference } : {}),
        updatedAt: now.toISOString(),
      });
      // A manufacturer's own adjustment is an activity; reserved stock (with a reference) is the order's.
      const signed = delta > 0 ? `+${delta}` : String(delta);
      const activity = reference ? [] : [ev.activity(who, 'product_update', current, `stock ${signed}`)];
      let saved: Searchable;
      try {
        saved = await change([event, ...activity], async () => {
          const outcome = await store.adjust(current.id, delta, reference, now);
          if (outcome.kind !== 'applied') throw new NotApplied(outcome);
          return outcome.product;
        });
      } catch (err) {
        if (!(err instanceof NotApplied)) throw err;
        const o = err.outcome;
        switch (o.kind) {
          case 'duplicate':
            saved = o.product;
            break;
          case 'missing':
            reader.removed(current.id);
            throw notFound(MSG.notFound);
          case 'insufficient':
            throw conflict(MSG.insufficientStock);
          case 'overflow':
            throw conflict(MSG.stockRange);
          case 'reference-reused':
            throw conflict('This stock reference was already used for a different movement');
        }
      }
      reader.saved(saved);
      return { product: toProto(saved) };
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
