import {
  catalogV1,
  charCount,
  PRODUCT_LIMITS,
  PRODUCT_MESSAGES as MSG,
  PRODUCT_TYPES,
  type ProductTypeName,
} from '@qm/contracts';
import { type Caller, forbidden, hasRole, invalid, unauthenticated } from '@qm/platform';

/** Product rules of spec §3/§5/§6 and issue 4: bounds, who may do what. No I/O here. */

export interface ProductRecord {
  id: number;
  name: string;
  type: ProductTypeName;
  pricePaise: number;
  description: string;
  stock: number;
  manufacturerId: number;
  status: string;
  createdAt: Date;
  updatedAt: Date;
  /** Incremented by every change; orders concurrent results (the read model keeps the highest). */
  version: number;
}

export const DEFAULT_STATUS = 'active';

export interface NewProduct {
  name: string;
  type: ProductTypeName;
  pricePaise: number;
  description: string;
  stock: number;
}

export interface ProductChanges {
  name?: string;
  pricePaise?: number;
  description?: string;
  stock?: number;
}

const { ProductType } = catalogV1;

const TYPE_BY_PROTO: Partial<Record<catalogV1.ProductType, ProductTypeName>> = {
  [ProductType.PRODUCT_TYPE_WEAPON]: 'Weapon',
  [ProductType.PRODUCT_TYPE_VEHICLE]: 'Vehicle',
  [ProductType.PRODUCT_TYPE_EQUIPMENT]: 'Equipment',
  [ProductType.PRODUCT_TYPE_AMMUNITION]: 'Ammunition',
  [ProductType.PRODUCT_TYPE_OTHER]: 'Other',
};
const PROTO_BY_TYPE = Object.fromEntries(
  Object.entries(TYPE_BY_PROTO).map(([k, v]) => [v, Number(k)]),
) as Record<ProductTypeName, catalogV1.ProductType>;

export const typeFromProto = (t: catalogV1.ProductType): ProductTypeName | undefined => TYPE_BY_PROTO[t];
export const typeToProto = (t: ProductTypeName): catalogV1.ProductType => PROTO_BY_TYPE[t];
export const isProductType = (t: string): t is ProductTypeName =>
  (PRODUCT_TYPES as readonly string[]).includes(t);

export function validName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw invalid(MSG.nameRequired);
  if (charCount(trimmed) > PRODUCT_LIMITS.nameMaxChars) throw invalid(MSG.nameTooLong);
  return trimmed;
}

export function validDescription(description: string): string {
  const trimmed = description.trim();
  if (charCount(trimmed) > PRODUCT_LIMITS.descriptionMaxChars) throw invalid(MSG.descriptionTooLong);
  return trimmed;
}

export function validPrice(pricePaise: number): number {
  if (!Number.isSafeInteger(pricePaise) || pricePaise < 0 || pricePaise > PRODUCT_LIMITS.pricePaiseMax)
    throw invalid(MSG.priceRange);
  return pricePaise;
}

export function validStock(stock: number): number {
  if (!Number.isInteger(stock)) throw invalid(MSG.stockInteger);
  if (stock < 0 || stock > PRODUCT_LIMITS.stockMax) throw invalid(MSG.stockRange);
  return stock;
}

export function validNewProduct(req: catalogV1.CreateProductRequest): NewProduct {
  const type = typeFromProto(req.type);
  const name = validName(req.name);
  if (!type) throw invalid(MSG.typeInvalid);
  return {
    name,
    type,
    pricePaise: validPrice(req.pricePaise),
    description: validDescription(req.description),
    stock: validStock(req.stock),
  };
}

/** The version an update was based on: required, so no edit can silently overwrite a newer state. */
export function validVersion(version: number): number {
  if (!Number.isSafeInteger(version) || version <= 0) throw invalid(MSG.versionRequired);
  return version;
}

export function validChanges(req: catalogV1.UpdateProductRequest): ProductChanges {
  const changes: ProductChanges = {};
  if (req.name !== undefined) changes.name = validName(req.name);
  if (req.pricePaise !== undefined) changes.pricePaise = validPrice(req.pricePaise);
  if (req.description !== undefined) changes.description = validDescription(req.description);
  if (req.stock !== undefined) changes.stock = validStock(req.stock);
  if (Object.keys(changes).length === 0) throw invalid(MSG.nothingToUpdate);
  return changes;
}

export function validId(id: number): number {
  if (!Number.isSafeInteger(id) || id <= 0) throw invalid('Product id must be a positive whole number');
  return id;
}

/** A stock movement: a non-zero whole number that cannot by itself leave the allowed range. */
export function validDelta(delta: number): number {
  if (!Number.isSafeInteger(delta) || delta === 0)
    throw invalid('Stock change must be a non-zero whole number');
  if (Math.abs(delta) > PRODUCT_LIMITS.stockMax) throw invalid(MSG.stockRange);
  return delta;
}

// ---- who may do what (spec §6; enforced here whatever the UI shows) ----

export function requireCaller(caller: Caller | undefined): Caller {
  if (!caller) throw unauthenticated();
  return caller;
}

/** Only manufacturers list products (the gateway gives sessions to approved users only). */
export function assertMayCreate(caller: Caller): void {
  if (!hasRole(caller, 'Manufacturer')) throw forbidden('Only manufacturers can create products');
}

export const isOwner = (caller: Caller, product: Pick<ProductRecord, 'manufacturerId'>) =>
  product.manufacturerId === caller.userId;

export function assertMayEdit(caller: Caller, product: ProductRecord): void {
  if (!isOwner(caller, product)) throw forbidden('You can only edit your own products');
}

export function assertMayDelete(caller: Caller, product: ProductRecord): void {
  if (!isOwner(caller, product)) throw forbidden('You can only delete your own products');
}

/** Only the owner sets its stock; purchases move it through reservations (domain/stock.ts). */
export function assertMayAdjust(caller: Caller, product: ProductRecord): void {
  if (!isOwner(caller, product)) throw forbidden('You can only change the stock of your own products');
}

export function toProto(p: ProductRecord): catalogV1.Product {
  return {
    id: p.id,
    name: p.name,
    type: typeToProto(p.type),
    pricePaise: p.pricePaise,
    description: p.description,
    stock: p.stock,
    manufacturerId: p.manufacturerId,
    status: p.status,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
    version: p.version,
  };
}

/** Search is case-insensitive: names and queries compare in this normal form. */
export const searchForm = (text: string): string => text.normalize('NFKC').toLowerCase();
