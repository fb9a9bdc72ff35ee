/**
 * Periodic work on documents that come due with time (markers to clear, keys to expire), asked for
 * by one equality per window of time instead of a range.
 *
 * The local store engine serves only equality from an index (docs/adr/004), so a sweep asking
 * `{dueAt: {$lt: now}}`, or asking by a flag every waiting document carries, reads every document
 * still waiting at every run: each document is read again and again until it comes due. Filed
 * instead under the window of time it comes due in (`windowOf`), a document is asked for once,
 * by `{<field>: window}`, after its window has passed.
 */
export const windowOf = (at: Date, windowMs: number): number => Math.floor(at.getTime() / windowMs);

export interface WindowedSweep {
  /**
   * Does what came due by `due`: the windows that ended by then, each asked once; `now` decides
   * when to catch up again. Answers how many documents it handled.
   */
  (due: Date, now?: Date): Promise<number>;
}

export function windowedSweep(opts: {
  windowMs: number;
  /**
   * How often to catch up again (the first run always does): for a document filed after its window
   * was swept (a writer that stalled, or whose clock was behind), and documents filed before there
   * were windows.
   */
  catchUpEveryMs: number;
  /**
   * Everything due before `due`, asked the slow way (a range, or every document waiting). `complete`
   * false when it stopped at a batch: the next run catches up again.
   */
  catchUp(due: Date, now: Date): Promise<{ handled: number; complete: boolean }>;
  /** The documents filed under `window`, all due. */
  window(window: number, now: Date): Promise<number>;
}): WindowedSweep {
  /** The last window swept, once caught up. */
  let sweptThrough: number | undefined;
  let caughtUpAt = 0;
  return async (due, now = new Date()) => {
    // The last window that ended by `due`.
    const last = windowOf(due, opts.windowMs) - 1;
    if (now.getTime() - caughtUpAt >= opts.catchUpEveryMs) sweptThrough = undefined;
    if (sweptThrough === undefined) {
      const { handled, complete } = await opts.catchUp(due, now);
      if (complete) {
        sweptThrough = last;
        caughtUpAt = now.getTime();
      }
      return handled;
    }
    let handled = 0;
    for (let window = sweptThrough + 1; window <= last; window++) {
      handled += await opts.window(window, now);
      sweptThrough = window;
    }
    return handled;
  };
}
