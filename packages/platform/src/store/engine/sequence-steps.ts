import type { SequenceStep } from './types';

/**
 * `nextMany` for any engine: takes each name's total in one step (`takeTotals`, answering each name's
 * last number) and hands its range out to the steps in the order asked, so a name asked twice gets
 * the lower numbers first, whatever order the engine took the names in.
 */
export async function takeInOrder(
  steps: SequenceStep[],
  takeTotals: (totals: Map<string, number>) => Promise<Map<string, number>>,
): Promise<number[]> {
  if (steps.length === 0) return [];
  const totals = new Map<string, number>();
  for (const s of steps) totals.set(s.name, (totals.get(s.name) ?? 0) + s.count);
  const end = await takeTotals(totals);
  const taken = new Map<string, number>();
  return steps.map((s) => {
    const before = taken.get(s.name) ?? 0;
    taken.set(s.name, before + s.count);
    return end.get(s.name)! - totals.get(s.name)! + before + s.count;
  });
}

type NextMany = (steps: SequenceStep[]) => Promise<number[]>;

interface Caller {
  steps: SequenceStep[];
  resolve(lasts: number[]): void;
  reject(err: unknown): void;
}

/**
 * `nextMany` that sends the steps asked within one synchronous stretch of the process as one
 * `nextMany` of the engine: a transfer numbers its entries and its users' lines side by side, and
 * both now take one statement, not two. Each caller gets its own numbers, the earlier caller the
 * lower ones of a name both ask; no caller waits for more than the microtasks already queued. A
 * failure of the step fails every caller in it (none of their numbers were taken, or all were).
 */
export function askedTogether(nextMany: NextMany): NextMany {
  let batch: Caller[] | null = null;
  const send = (callers: Caller[]) => {
    batch = null;
    nextMany(callers.flatMap((c) => c.steps)).then(
      (lasts) => {
        let at = 0;
        for (const c of callers) c.resolve(lasts.slice(at, (at += c.steps.length)));
      },
      (err: unknown) => {
        for (const c of callers) c.reject(err);
      },
    );
  };
  return (steps) => {
    if (steps.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      if (!batch) {
        const callers: Caller[] = [];
        batch = callers;
        queueMicrotask(() => send(callers));
      }
      batch.push({ steps, resolve, reject });
    });
  };
}
