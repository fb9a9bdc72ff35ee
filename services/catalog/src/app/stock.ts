import { PRODUCT_MESSAGES as MSG } from '@qm/contracts/rest';
import { conflict, notFound } from '@qm/platform';
import type { ReleaseOutcome, ReturnOutcome } from '../store/reservations';
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
 * The orders service's stock movements for a purchase: reserve, then commit or release, and a
 * committed one's return for a refund, each once per reference. Its proven service identity, not
 * a user, authorises them.
 */
export function createStock({ reservations, reader }: CatalogDeps, { change, existing }: Changes) {
  /**
   * Puts a reservation's units back (a release or a return) with the product's change event, kept
   * only when this call moved them. Read first to describe the change; the step itself is
   * conditional on the reservation's state.
   */
  async function putBack<O extends ReleaseOutcome | ReturnOutcome>(
    asked: string,
    movement: 'release' | 'return',
    step: (reference: string, at: Date) => Promise<O>,
  ): Promise<O> {
    const reference = validReference(asked);
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
            movement,
            updatedAt: now.toISOString(),
          }),
        ]
      : [];
    const o = await outcomeOf(
      (fn) => change(events, fn),
      () => step(reference, now),
      (o) => o.kind === 'released' || o.kind === 'returned',
    );
    const done: ReleaseOutcome | ReturnOutcome = o;
    if ('product' in done) {
      if (done.product) reader.saved(done.product);
      else if (product) reader.removed(product.id);
    }
    return o;
  }

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
      const o = await putBack(asked, 'release', (reference, at) => reservations.release(reference, at));
      switch (o.kind) {
        case 'unknown':
          throw notFound(STOCK.unknownReservation);
        case 'committed':
          throw conflict(STOCK.alreadyCommitted);
        case 'not-reserved':
          throw conflict(STOCK.notReserved);
      }
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
        case 'returned':
          throw conflict(STOCK.alreadyReturned);
        case 'not-reserved':
          throw conflict(STOCK.notReserved);
      }
      return { reservation: reservationToProto(o.reservation) };
    },

    /** Orders service: a refunded sale's units go back on sale (a second return has no effect). */
    async returnStock(service: string | undefined, asked: string) {
      assertOrdersService(service);
      const o = await putBack(asked, 'return', (reference, at) => reservations.returnSold(reference, at));
      switch (o.kind) {
        case 'unknown':
          throw notFound(STOCK.unknownReservation);
        case 'not-committed':
          throw conflict(STOCK.notSold);
      }
      return {
        // False when the product was deleted since: nothing went back, the reservation is returned.
        returned: o.product !== null,
        quantity: o.reservation.quantity,
        reservation: reservationToProto(o.reservation),
      };
    },
  };
}
