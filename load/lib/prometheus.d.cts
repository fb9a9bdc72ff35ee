/** Types of prometheus.cjs for the TypeScript load scripts and their tests. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}
export interface HistogramDelta {
  labels: Record<string, string>;
  count: number;
  sum: number;
  buckets: [le: number, cumulative: number][];
}
export function parseSamples(text: string): Sample[];
export function histogramsBetween(before: string, after: string, family: string): HistogramDelta[];
export function quantile(q: number, histogram: Pick<HistogramDelta, 'buckets' | 'count'>): number;
export function countersBetween(
  before: string,
  after: string,
  name: string,
): { labels: Record<string, string>; value: number }[];
