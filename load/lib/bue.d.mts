/** Types of bue.mjs for the TypeScript load scripts. */
export function bareUpdateCpuMs(
  n?: number,
  warm?: number,
): Promise<{ ms: number; per: { client: number; ferretdb: number; postgres: number }; writes: number }>;
export const UNIT_DRIFT_TOLERANCE: number;
export function unitOverRun(before: { ms: number }, after: { ms: number }): number;
export function inBue(label: string, cpuMs: number, bue: number, budget: number): boolean;
