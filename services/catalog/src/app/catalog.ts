import { PRODUCT_MESSAGES as MSG } from '@qm/contracts/rest';
import { type Caller, conflict, notFound } from '@qm/platform';
import { type ListRequest, parseListRequest, type Searchable } from '../domain/listing';
import {
  assertMayAdjust,
  assertMayCreate,
  assertMayDelete,
  assertMayEdit,
  DEFAULT_STATUS,
  type NewProductInput,
  type ProductChanges,
  type ProductRecord,
  requireCaller,
  validChanges,
  validDelta,
  validNewProduct,
  validVersion,
} from '../domain/product';
import type { ReservationReply } from '../domain/stock';
import * as ev from '../events/catalog-events';
import { type CatalogDeps, type Changes, changes } from './changes';
import { createStock, type StockReservationAsk } from './stock';

export type { CatalogDeps } from './changes';
export type { StockReservationAsk } from './stock';

/** A product asked for; `recordView`: the caller is looking at it (a product_view activity). */
export interface ProductLookup {
  id: number;
  recordView: boolean;
}

/** An owner's edit of a product: the fields changed, and the version it was based on. */
export interface ProductEdit extends ProductChanges {
  id: number;
  version: number;
}

/** An owner's stock movement: negative takes stock out, positive puts it back. */
export interface StockAdjustment {
  id: number;
  delta: number;
}

/** How many products one outbox batch of the account-deletion cascade removes. */
const CASCADE_BATCH = 100;

/**
 * The catalog's use cases: authorise with the caller, apply the domain rules, change the store
 * with its events through the outbox, keep the read side current, record the user's activity.
 */
export interface Catalog {
  /** A page of products; an `ifNoneMatch` equal to the current etag answers `notModified` and none. */
  list(
    caller: Caller | undefined,
    req: ListRequest,
    ifNoneMatch: string,
  ): Promise<{
    products: ProductRecord[];
    total: number;
    nextBeforeId: number;
    etag: string;
    notModified: boolean;
  }>;
  /**
   * For a signed-in caller; or for the orders service alone, whose sweeper resumes purchases in the
   * background with no user to act for (docs/adr/021).
   */
  get(caller: Caller | undefined, req: ProductLookup, service?: string): Promise<Searchable>;
  create(caller: Caller | undefined, input: NewProductInput): Promise<Searchable>;
  update(caller: Caller | undefined, req: ProductEdit): Promise<Searchable>;
  remove(caller: Caller | undefined, id: number): Promise<void>;
  /** The owner's own stock movement (restocking, a count correction). */
  adjustStock(caller: Caller | undefined, req: StockAdjustment): Promise<Searchable>;

  /** Orders service: takes stock for a purchase under its reference (once per reference). */
  reserveStock(
    service: string | undefined,
    req: StockReservationAsk,
  ): Promise<{ product: Searchable | null; reservation: ReservationReply }>;
  /** Orders service: puts a reservation's stock back (a second release has no effect). */
  releaseStock(
    service: string | undefined,
    reference: string,
  ): Promise<{ product: Searchable | null; reservation: ReservationReply }>;
  /** Orders service: the purchase went through; the reservation stays taken. */
  commitStock(service: string | undefined, reference: string): Promise<{ reservation: ReservationReply }>;
  /** Orders service: a refunded sale's units go back on sale (a second return has no effect). */
  returnStock(
    service: string | undefined,
    reference: string,
  ): Promise<{ returned: boolean; quantity: number; reservation: ReservationReply }>;

  /** The account-deletion cascade: every product of the manufacturer, in batches. */
  removeProductsOf(manufacturerId: number): Promise<number>;
}

export function createCatalog(deps: CatalogDeps): Catalog {
  const steps = changes(deps);
  return { ...products(deps, steps), ...createStock(deps, steps), ...cascade(deps, steps) };
}

/** Manufacturers' and buyers' own calls on products. */
function products(
  { store, reader }: CatalogDeps,
  { change, recordActivity, forgetIfGone, existing }: Changes,
) {
  return {
    async list(caller: Caller | undefined, req: ListRequest, ifNoneMatch: string) {
      requireCaller(caller);
      const { filter, paging } = parseListRequest(req);
      // Read together with the listing below (no await between them in the memory read model).
      const etag = reader.etag();
      if (etag && ifNoneMatch === etag)
        return { products: [], total: 0, nextBeforeId: 0, etag, notModified: true };
      const out = await reader.list(filter, paging);
      return {
        products: out.products,
        total: out.total,
        nextBeforeId: out.nextBeforeId,
        etag,
        notModified: false,
      };
    },

    async get(caller: Caller | undefined, req: ProductLookup, service?: string) {
      const who = caller === undefined && service === 'orders' ? undefined : requireCaller(caller);
      const product = await existing(req.id);
      if (req.recordView && who) await recordActivity(who, 'product_view', product);
      return product;
    },

    async create(caller: Caller | undefined, input: NewProductInput) {
      const who = requireCaller(caller);
      assertMayCreate(who);
      const fields = validNewProduct(input);
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
      return saved;
    },

    async update(caller: Caller | undefined, req: ProductEdit) {
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
      return saved;
    },

    async remove(caller: Caller | undefined, id: number) {
      const who = requireCaller(caller);
      const current = await existing(id);
      assertMayDelete(who, current);
      const deleted = [
        ev.deleted(current, current.manufacturerId, 'owner'),
        ev.activity(who, 'product_delete', current),
      ];
      await change(deleted, async () => {
        if (!(await store.remove(current.id, who.userId))) throw notFound(MSG.notFound);
      }).catch(forgetIfGone(current.id));
      reader.removed(current.id);
    },

    async adjustStock(caller: Caller | undefined, req: StockAdjustment) {
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
        const moved = await store.move(current.id, delta, now, { supply: true });
        if ('product' in moved) return moved.product;
        if (moved.kind === 'missing') throw notFound(MSG.notFound);
        throw conflict(moved.kind === 'insufficient' ? MSG.insufficientStock : MSG.stockRange);
      }).catch(forgetIfGone(current.id));
      reader.saved(saved);
      return saved;
    },
  };
}

function cascade({ store, reader }: CatalogDeps, { change }: Changes) {
  return {
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
