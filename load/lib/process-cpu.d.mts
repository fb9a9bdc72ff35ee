/** Types of process-cpu.mjs for the TypeScript load scripts. */
export function cpuByComponent(): Record<string, number>;
export function machineCpu(): { busy: number; total: number };
export function writesByComponent(): Record<string, number>;
export function ownWrites(): number;
export function perOperation(
  before: Record<string, number>,
  after: Record<string, number>,
  n: number,
): { per: Record<string, number>; total: number };
export function latencySummary(latencies: number[]): string;
export function engineCpuPerCall(
  n: number,
  take: (i: number) => Promise<unknown>,
  warm?: number,
  opts?: { reaches?: string[]; idle?: Record<string, number> },
): Promise<{
  wallMs: number;
  client: number;
  ferretdb: number;
  postgres: number;
  total: number;
  writes: number;
  per: Record<string, number>;
}>;
export function idleCpuRates(components: string[], ms?: number): Promise<Record<string, number>>;
export function laterWorkCpu(
  remaining: () => Promise<number>,
  opts: { pollMs?: number; timeoutMs: number; quietMs?: number; settleMs?: number },
): Promise<{ per: Record<string, number>; idleMs: number; workMs: number } | undefined>;
