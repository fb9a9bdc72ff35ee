import { PRODUCT_LIMITS, PRODUCT_TYPES } from '@qm/contracts/rest';
import { changeBuilt, nextSequence } from '@qm/platform';
import { type Connection, type FilterQuery, type Model, Schema } from 'mongoose';
import { type ListFilter, type Listed, type Paging, type Searchable, trimChunk } from '../domain/listing';
import { type ProductChanges, type ProductRecord, searchForm } from '../domain/product';

/**
 * The products collection. Every change is one single-document conditional update (docs/architecture.md §3,
 * docs/adr/008), so concurrent edits never overwrite each other's fields and stock moves by `$inc`.
 */
interface ProductDoc extends Searchable {
  /** Keys of the latest keyed stock movements applied to this product (idempotency, see move). */
  movements?: string[];
  /**
   * The stock its manufacturer has supplied: the initial stock plus every change the owner made
   * (AdjustStock, UpdateProduct's stock). Purchases never move it, so `npm run system:check` can
   * prove stock + units reserved or sold = this. Absent on products created before it was kept.
   */
  suppliedStock?: number;
}

/** How many movement keys a product remembers; the reservations remember their own state. */
const MOVEMENT_WINDOW = 200;

const productSchema = new Schema<ProductDoc>(
  {
    id: { type: Number, required: true },
    name: { type: String, required: true },
    type: { type: String, required: true, enum: PRODUCT_TYPES },
    pricePaise: { type: Number, required: true },
    description: { type: String, default: '' },
    stock: { type: Number, required: true },
    manufacturerId: { type: Number, required: true },
    status: { type: String, required: true },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
    version: { type: Number, required: true },
    nameSearch: { type: String, required: true },
    descriptionSearch: { type: String, default: '' },
    movements: { type: [String], default: undefined },
    suppliedStock: { type: Number },
  },
  // strict: fields outside the schema are never stored, whatever a caller sends.
  { collection: 'products', versionKey: false, strict: true, autoIndex: false },
);
// Newest first (the list's order), by type, by manufacturer (the identity cascade), by id.
productSchema.index({ id: 1 }, { unique: true });
productSchema.index({ createdAt: -1 });
productSchema.index({ type: 1, id: -1 });
productSchema.index({ manufacturerId: 1, id: -1 });

/** A stock movement's outcome on the product document. */
export type MoveOutcome =
  { kind: 'applied' | 'duplicate'; product: Searchable } | { kind: 'missing' | 'insufficient' | 'overflow' };

export interface MoveOptions {
  /** Applies the movement at most once per key (remembered on the product, see MOVEMENT_WINDOW). */
  key?: string;
  /** Refuses to go above the stock maximum (false: stock that was reserved comes back regardless). */
  capped?: boolean;
  /** The owner's own movement: it changes the stock supplied too (reservations do not). */
  supply?: boolean;
}

const PUBLIC_FIELDS = {
  _id: 0,
  id: 1,
  name: 1,
  type: 1,
  pricePaise: 1,
  description: 1,
  stock: 1,
  manufacturerId: 1,
  status: 1,
  createdAt: 1,
  updatedAt: 1,
  version: 1,
  nameSearch: 1,
  descriptionSearch: 1,
} as const;

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function toRecord(d: ProductDoc): Searchable {
  return {
    id: d.id,
    name: d.name,
    type: d.type,
    pricePaise: d.pricePaise,
    description: d.description ?? '',
    stock: d.stock,
    manufacturerId: d.manufacturerId,
    status: d.status,
    createdAt: new Date(d.createdAt),
    updatedAt: new Date(d.updatedAt),
    version: d.version ?? 0,
    nameSearch: d.nameSearch ?? searchForm(d.name),
    descriptionSearch: d.descriptionSearch ?? searchForm(d.description ?? ''),
  };
}

function dbFilter(f: ListFilter): FilterQuery<ProductDoc> {
  const q: FilterQuery<ProductDoc> = {};
  if (f.type) q.type = f.type;
  if (f.manufacturerId) q.manufacturerId = f.manufacturerId;
  if (f.ids) q.id = { $in: f.ids };
  if (f.query) {
    // Search form is already lower case: a plain (escaped) pattern, no case-insensitive scan.
    const pattern = escapeRegex(f.query);
    q.$or = [{ nameSearch: { $regex: pattern } }, { descriptionSearch: { $regex: pattern } }];
  }
  return q;
}

/** The database read path: indexed filters, sorted by id (newest first). */
async function listFrom(Products: Model<ProductDoc>, filter: ListFilter, paging: Paging): Promise<Listed> {
  const q = dbFilter(filter);
  if (paging.kind === 'page') {
    const [docs, total] = await Promise.all([
      Products.find(q, PUBLIC_FIELDS)
        .sort({ id: -1 })
        .skip((paging.page - 1) * paging.pageSize)
        .limit(paging.pageSize)
        .lean<ProductDoc[]>(),
      Products.countDocuments(q),
    ]);
    return { products: docs.map(toRecord), total, nextBeforeId: 0 };
  }
  const chunkQ = paging.beforeId ? { $and: [q, { id: { $lt: paging.beforeId } }] } : q;
  const [docs, total] = await Promise.all([
    Products.find(chunkQ, PUBLIC_FIELDS)
      .sort({ id: -1 })
      .limit(paging.size + 1)
      .lean<ProductDoc[]>(),
    Products.countDocuments(q),
  ]);
  const { products, more } = trimChunk(docs.map(toRecord), paging.size);
  return { products, total, nextBeforeId: more ? products.at(-1)!.id : 0 };
}

export interface ProductStore {
  /** Builds the indexes (autoIndex is off). */
  init(): Promise<void>;
  nextId(): Promise<number>;
  insert(p: ProductRecord): Promise<Searchable>;
  findById(id: number): Promise<Searchable | null>;
  exists(id: number): Promise<boolean>;
  /** Every product, newest first (loads the in-memory read model). */
  all(): Promise<Searchable[]>;
  /** The database read path: indexed filters, sorted by id (newest first). */
  list(filter: ListFilter, paging: Paging): Promise<Listed>;
  /**
   * Sets the given fields only (never a read-modify-write of the whole document), and only while
   * the product still belongs to `manufacturerId` and is at `version`, the version the change was
   * based on: one conditional update, so of two edits from the same version only the first applies.
   */
  update(
    id: number,
    manufacturerId: number,
    version: number,
    changes: ProductChanges,
    updatedAt: Date,
  ): Promise<{ kind: 'applied'; product: Searchable } | { kind: 'missing' | 'stale' }>;
  /**
   * Moves stock by `delta` in one conditional update: never below 0 and (when capped) never above
   * 1,000,000. With a key, at most once: the key is pushed onto the product in the same update,
   * so a retry after a crash neither loses nor repeats the movement.
   */
  move(id: number, delta: number, at: Date, options?: MoveOptions): Promise<MoveOutcome>;
  /** Whether the keyed movement is among those the product remembers. */
  moved(id: number, key: string): Promise<boolean>;
  /** Deletes the product if it still belongs to `manufacturerId`. */
  remove(id: number, manufacturerId: number): Promise<boolean>;
  /** A batch of one manufacturer's products (id and name), for the account-deletion cascade. */
  ofManufacturer(manufacturerId: number, limit: number): Promise<Pick<ProductRecord, 'id' | 'name'>[]>;
  /** Deletes those of `ids` that still belong to `manufacturerId`; how many it deleted. */
  removeMany(ids: number[], manufacturerId: number): Promise<number>;
}

export function createProductStore(conn: Connection): ProductStore {
  const Products = conn.model<ProductDoc>('Product', productSchema);

  async function findDoc(id: number): Promise<ProductDoc | null> {
    return Products.findOne({ id }).lean<ProductDoc>();
  }

  return {
    async init(): Promise<void> {
      await Products.createIndexes();
    },

    nextId: () => nextSequence(conn, 'products'),

    async insert(p: ProductRecord): Promise<Searchable> {
      const doc: ProductDoc = {
        ...p,
        suppliedStock: p.stock,
        nameSearch: searchForm(p.name),
        descriptionSearch: searchForm(p.description),
      };
      await Products.create(doc);
      return toRecord(doc);
    },

    async findById(id: number): Promise<Searchable | null> {
      const d = await Products.findOne({ id }, PUBLIC_FIELDS).lean<ProductDoc>();
      return d ? toRecord(d) : null;
    },

    async exists(id: number): Promise<boolean> {
      return (await Products.exists({ id })) !== null;
    },

    async all(): Promise<Searchable[]> {
      const docs = await Products.find({}, PUBLIC_FIELDS).sort({ id: -1 }).lean<ProductDoc[]>();
      return docs.map(toRecord);
    },

    list: (filter: ListFilter, paging: Paging) => listFrom(Products, filter, paging),

    async update(
      id: number,
      manufacturerId: number,
      version: number,
      changes: ProductChanges,
      updatedAt: Date,
    ): Promise<{ kind: 'applied'; product: Searchable } | { kind: 'missing' | 'stale' }> {
      const set: Partial<ProductDoc> = { ...changes, updatedAt };
      if (changes.name !== undefined) set.nameSearch = searchForm(changes.name);
      if (changes.description !== undefined) set.descriptionSearch = searchForm(changes.description);
      const inc: Record<string, number> = { version: 1 };
      if (changes.stock !== undefined) {
        // The stock at `version` is the one this change replaces (every stock movement bumps the
        // version), so the supplied stock moves by the difference, in the same conditional update.
        const before = await Products.findOne(
          { id, manufacturerId, version },
          { stock: 1 },
        ).lean<ProductDoc>();
        if (before) inc.suppliedStock = changes.stock - before.stock;
      }
      const d = await Products.findOneAndUpdate(
        { id, manufacturerId, version },
        { $set: set, $inc: inc },
        // No projection: the local engine implements none on findAndModify (ADR 024); toRecord picks the fields.
        { new: true },
      ).lean<ProductDoc>();
      if (d) return { kind: 'applied', product: toRecord(d) };
      // Only to say why nothing was written; the write itself was the conditional update above.
      return (await Products.exists({ id, manufacturerId })) ? { kind: 'stale' } : { kind: 'missing' };
    },

    async move(
      id: number,
      delta: number,
      at: Date,
      { key, capped = true, supply = false }: MoveOptions = {},
    ): Promise<MoveOutcome> {
      const filter: FilterQuery<ProductDoc> = { id };
      if (delta < 0) filter.stock = { $gte: -delta };
      else if (capped) filter.stock = { $lte: PRODUCT_LIMITS.stockMax - delta };
      const inc = supply ? { stock: delta, suppliedStock: delta, version: 1 } : { stock: delta, version: 1 };
      const update: Record<string, unknown> = { $inc: inc, $set: { updatedAt: at } };
      if (key) {
        filter.movements = { $ne: key };
        update.$push = { movements: { $each: [key], $slice: -MOVEMENT_WINDOW } };
      }
      // Built typed here, so sent to the model's driver collection (docs/adr/051): a purchase's stock.
      const d = await changeBuilt(Products, filter, update);
      if (d) return { kind: 'applied', product: toRecord(d) };
      const current = await findDoc(id);
      if (!current) return { kind: 'missing' };
      if (key && current.movements?.includes(key)) return { kind: 'duplicate', product: toRecord(current) };
      return { kind: delta < 0 ? 'insufficient' : 'overflow' };
    },

    async moved(id: number, key: string): Promise<boolean> {
      return (await Products.exists({ id, movements: key })) !== null;
    },

    async remove(id: number, manufacturerId: number): Promise<boolean> {
      const r = await Products.deleteOne({ id, manufacturerId });
      return r.deletedCount === 1;
    },

    async ofManufacturer(
      manufacturerId: number,
      limit: number,
    ): Promise<Pick<ProductRecord, 'id' | 'name'>[]> {
      return Products.find({ manufacturerId }, { _id: 0, id: 1, name: 1 })
        .sort({ id: -1 })
        .limit(limit)
        .lean<Pick<ProductRecord, 'id' | 'name'>[]>();
    },

    async removeMany(ids: number[], manufacturerId: number): Promise<number> {
      const r = await Products.deleteMany({ id: { $in: ids }, manufacturerId });
      return r.deletedCount;
    },
  };
}
