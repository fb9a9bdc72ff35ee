import { PRODUCT_MESSAGES as MSG } from '@qm/contracts/rest';
import { conflict, notFound } from '@qm/platform';
import {
  assertOrdersService,
  expiryOf,
  reservationToProto,
  STOCK_MESSAGES as STOCK,
  validQuantity,
  validReference,
} from '../domain/stock';
import * as ev from '../events/catalog-events';
import { type CatalogDeps, type Changes, outcomeOf } from './changes';

/** The orders service's reservation of stock for a purchase, held `ttlSeconds` (0: the default). */
export interface StockReservationAsk {
  productId: number;
  quantity: number;
  reference: string;
  ttlSeconds: number;
}

/**
 * The orders service's stock movements for a purchase: reserve, then commit or release, each
 * once per reference. Its proven service identity, not a user, authorises them.
 */
export function createStock({ reservations, reader }: CatalogDeps, { change, existing }: Changes) {
  return {
    /** Orders service: takes stock for a purchase under its reference (once per reference). */
    async reserveStock(service: string | undefined, req: StockReservationAsk) {
      assertOrdersService(service);
      const quantity = validQuantity(req.quantity);
      const reference = validReference(req.reference);
      const now = new Date();
      const expiresAt = expiryOf(req.ttlSeconds, now);
      const current = await existing(req.productId);
      const event = ev.updated({
        id: current.id,
        manufacturerId: current.manufacturerId,
        stockDelta: -quantity,
        reference,
        movement: 'reserve',
        updatedAt: now.toISOString(),
      });
      const o = await outcomeOf(
        (fn) => change([event], fn),
        () => reservations.reserve(current.id, quantity, reference, expiresAt, now),
        (o) => o.kind === 'reserved',
      );
      switch (o.kind) {
        case 'missing':
          reader.removed(current.id);
          throw notFound(MSG.notFound);
        case 'insufficient':
          throw conflict(MSG.insufficientStock);
        case 'reference-reused':
          throw conflict(STOCK.referenceReused);
      }
      if (o.product) reader.saved(o.product);
      return {
        product: o.product,
        reservation: reservationToProto(o.reservation),
      };
    },

    /** Orders service: puts a reservation's stock back (a second release has no effect). */
    async releaseStock(service: string | undefined, asked: string) {
      assertOrdersService(service);
      const reference = validReference(asked);
      // Read to describe the change in its event; the release itself is conditional on the state.
      const reservation = await reservations.find(reference);
      if (!reservation) throw notFound(STOCK.unknownReservation);
      const product = await reader.get(reservation.productId);
      const now = new Date();
      const events = product
        ? [
            ev.updated({
              id: product.id,
              manufacturerId: product.manufacturerId,
              stockDelta: reservation.quantity,
              reference,
              movement: 'release',
              updatedAt: now.toISOString(),
            }),
          ]
        : [];
      const o = await outcomeOf(
        (fn) => change(events, fn),
        () => reservations.release(reference, now),
        (o) => o.kind === 'released',
      );
      switch (o.kind) {
        case 'unknown':
          throw notFound(STOCK.unknownReservation);
        case 'committed':
          throw conflict(STOCK.alreadyCommitted);
        case 'not-reserved':
          throw conflict(STOCK.notReserved);
      }
      if (o.product) reader.saved(o.product);
      else if (product) reader.removed(product.id);
      return {
        product: o.product,
        reservation: reservationToProto(o.reservation),
      };
    },

    /** Orders service: the purchase went through; the reservation stays taken. */
    async commitStock(service: string | undefined, reference: string) {
      assertOrdersService(service);
      const o = await reservations.commit(validReference(reference), new Date());
      switch (o.kind) {
        case 'unknown':
          throw notFound(STOCK.unknownReservation);
        case 'released':
          throw conflict(STOCK.alreadyReleased);
        case 'not-reserved':
          throw conflict(STOCK.notReserved);
      }
      return { reservation: reservationToProto(o.reservation) };
    },
  };
}
