import { forbidden, invalid } from '@qm/platform';
import type { Reservation } from '../store/reservations';

/** Stock reservations for purchases (docs/adr/010): who may make them, and their bounds. No I/O here. */

/** The only service that moves stock for purchases and refunds (its service identity, docs/adr/005). */
export const ORDERS_SERVICE = 'orders';

export const RESERVATION_TTL = { defaultSeconds: 15 * 60, maxSeconds: 24 * 60 * 60 } as const;

export const STOCK_MESSAGES = {
  ordersOnly: 'Only the orders service can reserve, release, commit or return stock',
  unknownReservation: 'No reservation with this reference',
  notReserved: 'This reservation holds no stock (it was refused or is still being made)',
  alreadyCommitted: 'This reservation was committed and can no longer be released',
  alreadyReleased: 'This reservation was released and can no longer be committed',
  alreadyReturned: 'This reservation was returned and can no longer be committed',
  notSold: 'Only sold stock can be returned: this reservation was never committed',
  referenceReused: 'This reference was already used for a different reservation',
} as const;

export function assertOrdersService(service: string | undefined): void {
  if (service !== ORDERS_SERVICE) throw forbidden(STOCK_MESSAGES.ordersOnly);
}

export function validReference(reference: string): string {
  const ref = reference.trim();
  if (!ref) throw invalid('Reservation reference is required');
  if (ref.length > 200 || !/^[\w.:@/-]+$/.test(ref))
    throw invalid('Reservation reference must be up to 200 letters, digits or . _ - : @ /');
  return ref;
}

export function validQuantity(quantity: number): number {
  if (!Number.isSafeInteger(quantity) || quantity <= 0)
    throw invalid('Quantity must be a positive whole number');
  return quantity;
}

/** When a reservation made at `at` expires: after ttlSeconds (0: the default), at most a day. */
export function expiryOf(ttlSeconds: number, at: Date): Date {
  const ttl = ttlSeconds || RESERVATION_TTL.defaultSeconds;
  if (!Number.isSafeInteger(ttl) || ttl < 0 || ttl > RESERVATION_TTL.maxSeconds)
    throw invalid(`Reservation lifetime must be between 1 and ${RESERVATION_TTL.maxSeconds} seconds`);
  return new Date(at.getTime() + ttl * 1000);
}

/** A reservation as answered to the orders service (the wire's StockReservation; expiry as ISO text). */
export interface ReservationReply extends Pick<
  Reservation,
  'reference' | 'productId' | 'quantity' | 'state'
> {
  expiresAt: string;
}

export function reservationToProto(r: Reservation): ReservationReply {
  return {
    reference: r.reference,
    productId: r.productId,
    quantity: r.quantity,
    // pending, rejected, releasing and returning are steps inside one call, never answered.
    state: r.state,
    expiresAt: r.expiresAt.toISOString(),
  };
}
