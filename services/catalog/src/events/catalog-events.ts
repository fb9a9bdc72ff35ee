import {
  ACTIVITY_SUBJECT,
  activityEvent,
  CATALOG_SUBJECTS as SUBJECTS,
  type ProductCreatedData,
  type ProductDeletedData,
  type ProductUpdatedData,
} from '@qm/contracts/events';
import {
  type Caller,
  type EventEnvelope,
  NOTICE_PREFIX,
  type OutgoingEvent,
  outgoingEvent,
} from '@qm/platform';
import type { ProductRecord } from '../domain/product';
import type { ProductStore } from '../store/products';
import type { ReservationStore } from '../store/reservations';

export type Outgoing = OutgoingEvent;

export const created = (p: ProductRecord): Outgoing =>
  outgoingEvent<ProductCreatedData>(SUBJECTS.created, {
    id: p.id,
    name: p.name,
    type: p.type,
    pricePaise: p.pricePaise,
    description: p.description,
    stock: p.stock,
    manufacturerId: p.manufacturerId,
    status: p.status,
    createdAt: p.createdAt.toISOString(),
  });

export const updated = (data: ProductUpdatedData): Outgoing =>
  outgoingEvent<ProductUpdatedData>(SUBJECTS.updated, data);

export const deleted = (
  p: Pick<ProductRecord, 'id' | 'name'>,
  manufacturerId: number,
  reason: ProductDeletedData['reason'],
): Outgoing =>
  outgoingEvent<ProductDeletedData>(SUBJECTS.deleted, { id: p.id, manufacturerId, name: p.name, reason });

export type ProductAction = 'product_create' | 'product_update' | 'product_delete' | 'product_view';

const VERB: Record<ProductAction, string> = {
  product_create: 'Created',
  product_update: 'Updated',
  product_delete: 'Deleted',
  product_view: 'Viewed',
};

/** Activity of docs/product.md §3 (product_view, product_create, product_update, product_delete). */
export function activity(
  caller: Caller,
  action: ProductAction,
  p: Pick<ProductRecord, 'id' | 'name'>,
  extra?: string,
): Outgoing {
  const details = `${VERB[action]} product "${p.name}" (ID ${p.id})${extra ? `: ${extra}` : ''}`;
  return activityEvent(caller, action, details);
}

/** How builds before docs/adr/050 named a product's event (before it became a notice). */
const EARLIER_PRODUCT_SUBJECT = /^catalog\.product\./;

/**
 * For an outbox entry left pending by a process that died mid-change: did the change happen?
 * Activity is recorded only after its change is done, so it always goes out. An entry an earlier build
 * left under the product event's former subject is judged as its notice is, or its batch's activity
 * would be dropped with it.
 */
export function confirmer(store: ProductStore, reservations: ReservationStore) {
  return async (event: EventEnvelope, written: string): Promise<boolean> => {
    const subject = EARLIER_PRODUCT_SUBJECT.test(written) ? `${NOTICE_PREFIX}${written}` : written;
    switch (subject) {
      case ACTIVITY_SUBJECT:
        return true;
      case SUBJECTS.created:
        return store.exists((event.data as ProductCreatedData).id);
      case SUBJECTS.deleted:
        return !(await store.exists((event.data as ProductDeletedData).id));
      case SUBJECTS.updated: {
        const data = event.data as ProductUpdatedData;
        if (data.reference && data.movement)
          return reservations.moved(data.id, data.reference, data.movement);
        const now = await store.findById(data.id);
        // At least as recent as the edit: the edit (or a later one, which makes this one harmless) happened.
        return !!now && now.updatedAt.getTime() >= new Date(data.updatedAt).getTime();
      }
      default:
        return false;
    }
  };
}
