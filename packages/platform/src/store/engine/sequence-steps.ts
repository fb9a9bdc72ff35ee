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
