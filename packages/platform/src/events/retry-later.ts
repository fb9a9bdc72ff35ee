/**
 * What a consumer throws when an event arrived before the state it follows is visible (a top-up's
 * credit announced a moment before the top-up is marked completed, an event another replica is
 * handling): an expected wait, not a failure. The bus sends it back after `firstDelayMs`, doubling
 * with each redelivery (a crash can make the wait long), and logs it at debug level.
 */
export class RetryLater extends Error {
  constructor(
    message: string,
    readonly firstDelayMs = 100,
  ) {
    super(message);
    this.name = 'RetryLater';
  }
}

/** The wait before a redelivery: doubling from `firstMs` with each one, at most 30 s. */
export const redeliveryDelay = (firstMs: number, redeliveries: number) =>
  Math.min(30_000, firstMs * 2 ** Math.min(redeliveries, 10));
