import type { ProductTypeName } from '../api/product-types';

/** What the catalog publishes (stream QM_CATALOG) and the activity it records (QM_ACTIVITY). */
export const CATALOG_SUBJECTS = {
  created: 'catalog.product.created',
  updated: 'catalog.product.updated',
  deleted: 'catalog.product.deleted',
} as const;

export interface ProductCreatedData {
  id: number;
  name: string;
  type: ProductTypeName;
  pricePaise: number;
  description: string;
  stock: number;
  manufacturerId: number;
  status: string;
  createdAt: string;
}

export interface ProductUpdatedData {
  id: number;
  manufacturerId: number;
  /** Fields set by an edit (absent for a stock movement). */
  changes?: ProductChangesData;
  /**
   * A stock movement: how much, and the reservation's reference when it belongs to a purchase
   * (`return`: a refunded sale's units back in stock, docs/adr/028).
   */
  stockDelta?: number;
  reference?: string;
  movement?: 'reserve' | 'release' | 'return';
  updatedAt: string;
}

export interface ProductDeletedData {
  id: number;
  manufacturerId: number;
  name: string;
  /** owner: the manufacturer deleted it; account-deleted: the manufacturer's account went. */
  reason: 'owner' | 'account-deleted';
}

/** The fields an edit set (catalog domain ProductChanges). */
export interface ProductChangesData {
  name?: string;
  pricePaise?: number;
  description?: string;
  stock?: number;
}
