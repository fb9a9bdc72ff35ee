/** Types of k6-seconds.cjs for the TypeScript load scripts and their tests. */
/** Per endpoint, per second of the load (0 = the first request after setup), the durations in ms. */
export type BySecond = Map<string, Map<number, number[]>>;
export interface StalledSecond {
  second: number;
  requests: number;
  medianMs: number;
  probeMedianMs: number;
}
export function readK6Json(file: string): string[];
export function durationsBySecond(lines: Iterable<string>): BySecond;
export function percentile(values: number[], q: number): number;
export function stalls(
  by: BySecond,
  endpoint: string,
  opts?: { probe?: string; factor?: number },
): { seconds: StalledSecond[]; ratio: number; ratioWithout: number };
