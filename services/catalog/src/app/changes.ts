import { PRODUCT_MESSAGES as MSG } from '@qm/contracts/rest';
import { AppError, GrpcStatus, type Logger, notFound, type Outbox } from '@qm/platform';
import type { Searchable } from '../domain/listing';
import { validId } from '../domain/product';
import * as ev from '../events/catalog-events';
import type { ProductReader } from '../store/read-model';
import type { ProductStore } from '../store/products';
import type { ReservationStore } from '../store/reservations';

export interface CatalogDeps {
  store: ProductStore;
  reservations: ReservationStore;
  reader: ProductReader;
  outbox: Outbox;
  log: Logger;
  /** Told the ids of the events this process publishes (so replicas' sync can skip its own). */
  publishing?(eventIds: string[]): void;
}

/** A change that turned out to have nothing to announce: its events are dropped (outbox.run). */
class NotApplied<T> extends Error {
  constructor(readonly outcome: T) {
    super('not applied');
  }
}

/** Runs a change whose outcome may be "nothing happened"; returns the outcome either way. */
export async function outcomeOf<T>(
  run: (fn: () => Promise<T>) => Promise<T>,
  fn: () => Promise<T>,
  applied: (o: T) => boolean,
) {
  try {
    return await run(async () => {
      const o = await fn();
      if (!applied(o)) throw new NotApplied(o);
      return o;
    });
  } catch (err) {
    if (err instanceof NotApplied) return err.outcome as T;
    throw err;
  }
}

/** The steps the catalog's use cases share: changes through the outbox, reads from the read side. */
export interface Changes {
  /** Runs `fn` with `events` in one outbox batch (published once it succeeded), telling replica sync. */
  change<T>(events: ev.Outgoing[], fn: () => Promise<T>): Promise<T>;
  /**
   * A view changes nothing, so its activity is published at once (through the outbox only if that
   * fails); a change's activity travels in the change's own outbox batch instead. Failing to record
   * a view never fails the request.
   */
  recordActivity(...args: Parameters<typeof ev.activity>): Promise<void>;
  /** A product found missing while changing it is gone from the read side too (a catch handler). */
  forgetIfGone(id: number): (err: unknown) => never;
  /** The product from the read side, or NOT_FOUND; the id is checked first. */
  existing(id: number): Promise<Searchable>;
}

export function changes({ reader, outbox, log, publishing }: CatalogDeps): Changes {
  async function change<T>(events: ev.Outgoing[], fn: () => Promise<T>): Promise<T> {
    publishing?.(events.map((e) => e.event.id));
    return outbox.run(events, fn);
  }

  async function recordActivity(...args: Parameters<typeof ev.activity>): Promise<void> {
    await outbox
      .publish([ev.activity(...args)])
      .catch((err: unknown) => log.warn({ err, action: args[1] }, 'activity not recorded'));
  }

  const forgetIfGone = (id: number) => (err: unknown) => {
    if (err instanceof AppError && err.code === GrpcStatus.NOT_FOUND) reader.removed(id);
    throw err;
  };

  async function existing(id: number): Promise<Searchable> {
    const product = await reader.get(validId(id));
    if (!product) throw notFound(MSG.notFound);
    return product;
  }

  return { change, recordActivity, forgetIfGone, existing };
}
