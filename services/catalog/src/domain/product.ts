import {
  charCount,
  PRODUCT_LIMITS,
  PRODUCT_MESSAGES as MSG,
  PRODUCT_TYPES,
  type ProductTypeName,
} from '@qm/contracts/rest';
import { type Caller, forbidden, hasRole, invalid, unauthenticated } from '@qm/platform';

/** Product rules of docs/product.md §3/§5/§6: bounds, who may do what. No I/O here. */

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

/** A new product as requested; `type` is undefined when the request named none this build knows. */
export type NewProductInput = Omit<NewProduct, 'type'> & { type: ProductTypeName | undefined };

export function validNewProduct(req: NewProductInput): NewProduct {
  const type = req.type;
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

export function validChanges(req: ProductChanges): ProductChanges {
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

// ---- who may do what (docs/product.md §6; enforced here whatever the UI shows) ----

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

/** Search is case-insensitive: names and queries compare in this normal form. */
export const searchForm = (text: string): string => text.normalize('NFKC').toLowerCase();
