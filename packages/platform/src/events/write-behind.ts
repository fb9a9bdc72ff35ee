/**
 * Writes nobody waits for, gathered into one command (docs/adr/052): each `add` joins the batch
 * written `gatherMs` after the first of it, or at once when `max` are waiting. Only for bookkeeping
 * whose loss costs a repeat that is itself harmless (an outbox entry published again, a handled
 * event's record missing when a later copy comes): a write that fails is reported and dropped.
 */
export interface WriteBehind<T> {
  add(...items: T[]): void;
  /** Writes what is waiting now, and resolves once every write begun so far has ended. */
  flush(): Promise<void>;
}

export function writeBehind<T>(
  write: (items: T[]) => Promise<unknown>,
  opts: { gatherMs: number; max: number; failed(err: unknown, items: T[]): void },
): WriteBehind<T> {
  let waiting: T[] = [];
  let timer: NodeJS.Timeout | undefined;
  const writing = new Set<Promise<void>>();

  function writeWaiting(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const items = waiting;
    waiting = [];
    if (!items.length) return Promise.resolve();
    const done = write(items).then(
      () => undefined,
      (err: unknown) => opts.failed(err, items),
    );
    writing.add(done);
    void done.finally(() => writing.delete(done));
    return done;
  }

  return {
    add(...items) {
      waiting.push(...items);
      if (waiting.length >= opts.max) void writeWaiting();
      else if (!timer) {
        timer = setTimeout(() => void writeWaiting(), opts.gatherMs);
        // A process on its way out writes what is left in its stop hook (or leaves it to the repeat).
        timer.unref();
      }
    },
    async flush() {
      void writeWaiting();
      await Promise.all(writing);
    },
  };
}
