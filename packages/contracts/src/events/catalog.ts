import { NOTICE_PREFIX } from '@qm/platform';
import type { ProductTypeName } from '../api/product-types';

/**
 * What the catalog announces of its products: notices, heard by its replicas (their caches) and the
 * browsers' live feeds, kept by no stream (docs/adr/050); its users' activity goes on QM_ACTIVITY.
 */
export const CATALOG_SUBJECTS = {
  created: `${NOTICE_PREFIX}catalog.product.created`,
  updated: `${NOTICE_PREFIX}catalog.product.updated`,
  deleted: `${NOTICE_PREFIX}catalog.product.deleted`,
} as const;

/** Every product notice, for a listener (a catalog replica's). */
export const CATALOG_PRODUCT_NOTICES = `${NOTICE_PREFIX}catalog.product.>`;

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
