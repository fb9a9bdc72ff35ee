import { PRODUCT_LIMITS, PRODUCT_TYPES } from '@qm/contracts';
import { isDuplicateKeyError, nextSequence } from '@qm/platform';
import { type Connection, type FilterQuery, Schema } from 'mongoose';
import { type ListFilter, type Listed, type Paging, type Searchable, trimChunk } from '../domain/listing';
import { type ProductChanges, type ProductRecord, searchForm } from '../domain/product';

/**
 * The products collection. Every change is one single-document conditional update (ARCHITECTURE §3,
 * docs/adr/002), so concurrent edits never overwrite each other's fields and stock moves by `$inc`.
 */
interface ProductDoc extends Searchable {
  /** References of the latest stock movements applied to this product (idempotency, see adjust). */
  movements?: string[];
}

/** How many movement references a product remembers; the ledger remembers them all. */
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
  },
  // strict: fields outside the schema are never stored, whatever a caller sends.
  { collection: 'products', versionKey: false, strict: true, autoIndex: false },
);
// Newest first (the list's order), by type, by manufacturer (the identity cascade), by id.
productSchema.index({ id: 1 }, { unique: true });
productSchema.index({ createdAt: -1 });
productSchema.index({ type: 1, id: -1 });
productSchema.index({ manufacturerId: 1, id: -1 });

interface MovementDoc {
  _id: string;
  productId: number;
  delta: number;
  state: 'pending' | 'applied' | 'rejected';
  reason?: AdjustFailure;
  at: Date;
}

const movementSchema = new Schema<MovementDoc>(
  {
    _id: { type: String, required: true },
    productId: { type: Number, required: true },
    delta: { type: Number, required: true },
    state: { type: String, required: true },
    reason: { type: String },
    at: { type: Date, required: true },
  },
  { collection: 'stock_movements', versionKey: false, strict: true, autoIndex: false },
);

export type AdjustFailure = 'missing' | 'insufficient' | 'overflow' | 'reference-reused';
export type AdjustOutcome =
  | { kind: 'applied'; product: Searchable }
  | { kind: 'duplicate'; product: Searchable }
  | { kind: AdjustFailure };

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

export type ProductStore = ReturnType<typeof createProductStore>;

export function createProductStore(conn: Connection) {
  const Products = conn.model<ProductDoc>('Product', productSchema);
  const Movements = conn.model<MovementDoc>('StockMovement', movementSchema);

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

    /** Every product, newest first (loads the in-memory read model). */
    async all(): Promise<Searchable[]> {
      const docs = await Products.find({}, PUBLIC_FIELDS).sort({ id: -1 }).lean<ProductDoc[]>();
      return docs.map(toRecord);
    },

    /** The database read path: indexed filters, sorted by id (newest first). */
    async list(filter: ListFilter, paging: Paging): Promise<Listed> {
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
    },

    /**
     * Sets the given fields only (never a read-modify-write of the whole document), and only
     * while the product still belongs to `manufacturerId`. Null when no such product.
     */
    async update(
      id: number,
      manufacturerId: number,
      changes: ProductChanges,
      updatedAt: Date,
    ): Promise<Searchable | null> {
      const set: Partial<ProductDoc> = { ...changes, updatedAt };
      if (changes.name !== undefined) set.nameSearch = searchForm(changes.name);
      if (changes.description !== undefined) set.descriptionSearch = searchForm(changes.description);
      const d = await Products.findOneAndUpdate(
        { id, manufacturerId },
        { $set: set, $inc: { version: 1 } },
        // No projection: FerretDB v1 does not implement one on findAndModify; toRecord picks the fields.
        { new: true },
      ).lean<ProductDoc>();
      return d ? toRecord(d) : null;
    },

    /**
     * Moves stock by `delta` in one conditional update: only while the result stays within
     * 0..1,000,000. With a reference, at most once: the reference is recorded in a ledger first
     * and pushed onto the product in the same update that moves the stock, so a retry after a
     * crash at any point neither loses nor repeats the movement.
     */
    async adjust(id: number, delta: number, reference: string | undefined, at: Date): Promise<AdjustOutcome> {
      if (reference) {
        try {
          await Movements.create({ _id: reference, productId: id, delta, state: 'pending', at });
        } catch (err) {
          if (!isDuplicateKeyError(err)) throw err;
          const m = await Movements.findById(reference).lean<MovementDoc>();
          if (!m || m.productId !== id || m.delta !== delta) return { kind: 'reference-reused' };
          if (m.state === 'rejected') return { kind: m.reason ?? 'insufficient' };
          if (m.state === 'applied') {
            const current = await this.findById(id);
            return current ? { kind: 'duplicate', product: current } : { kind: 'missing' };
          }
          // 'pending': an earlier attempt stopped midway; the product itself says whether it applied.
        }
      }
      const filter: FilterQuery<ProductDoc> = {
        id,
        stock: delta < 0 ? { $gte: -delta } : { $lte: PRODUCT_LIMITS.stockMax - delta },
      };
      const update: Record<string, unknown> = { $inc: { stock: delta, version: 1 }, $set: { updatedAt: at } };
      if (reference) {
        filter.movements = { $ne: reference };
        update.$push = { movements: { $each: [reference], $slice: -MOVEMENT_WINDOW } };
      }
      const d = await Products.findOneAndUpdate(filter, update, { new: true }).lean<ProductDoc>();
      let outcome: AdjustOutcome;
      if (d) outcome = { kind: 'applied', product: toRecord(d) };
      else {
        const current = await findDoc(id);
        if (!current) outcome = { kind: 'missing' };
        else if (reference && current.movements?.includes(reference))
          outcome = { kind: 'duplicate', product: toRecord(current) };
        else outcome = { kind: delta < 0 ? 'insufficient' : 'overflow' };
      }
      if (reference) {
        const done = outcome.kind === 'applied' || outcome.kind === 'duplicate';
        await Movements.updateOne(
          { _id: reference },
          { $set: done ? { state: 'applied' } : { state: 'rejected', reason: outcome.kind } },
        );
      }
      return outcome;
    },

    /** Whether a referenced movement took effect (the outbox asks after a crash). */
    async movementApplied(id: number, reference: string): Promise<boolean> {
      const d = await findDoc(id);
      if (d?.movements?.includes(reference)) return true;
      const m = await Movements.findById(reference).lean<MovementDoc>();
      return m?.state === 'applied';
    },

    /** Deletes the product if it still belongs to `manufacturerId`. */
    async remove(id: number, manufacturerId: number): Promise<boolean> {
      const r = await Products.deleteOne({ id, manufacturerId });
      return r.deletedCount === 1;
    },

    /** A batch of one manufacturer's products (id and name), for the account-deletion cascade. */
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
