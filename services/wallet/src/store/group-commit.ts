/**
 * Group commit by key: a call whose key has nothing in flight is applied at once, alone; calls that
 * arrive for that key meanwhile wait for it and are then applied together by one `apply`, at most
 * `max` at a time. A lone call waits for nothing, and a busy key makes one round trip per batch
 * instead of one per call, so its calls never queue behind each other's round trips
 * (docs/adr/006, amendment of 2026-12-04: hot accounts).
 *
 * `apply` answers one result per item, in order; if it throws, every call of that batch gets the error.
 */
export function groupCommit<K, T, R>(
  apply: (key: K, items: T[]) => Promise<R[]>,
  max: number,
): (key: K, item: T) => Promise<R> {
  interface Waiting {
    item: T;
    resolve: (r: R) => void;
    reject: (err: unknown) => void;
  }
  const lines = new Map<K, Waiting[]>();

  async function drain(key: K, line: Waiting[]): Promise<void> {
    while (line.length) {
      const batch = line.splice(0, max);
      try {
        const results = await apply(
          key,
          batch.map((w) => w.item),
        );
        batch.forEach((w, i) => w.resolve(results[i]!));
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    // Nothing can join between the last check and this: both run in the same turn of the loop.
    lines.delete(key);
  }

  return (key, item) =>
    new Promise<R>((resolve, reject) => {
      const line = lines.get(key);
      if (line) {
        line.push({ item, resolve, reject });
        return;
      }
      const fresh = [{ item, resolve, reject }];
      lines.set(key, fresh);
      void drain(key, fresh);
    });
}
