/** Types of profile-owners.cjs for the TypeScript load scripts and their tests. */
/** A V8 CPU profile as the inspector's Profiler.stop answers it (the fields read here). */
export interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }[];
  samples: number[];
  timeDeltas: number[];
}
/** The package a file belongs to (`@grpc/grpc-js`, `mongodb`), or undefined when it is in none. */
export function packageOf(file: string): string | undefined;
export interface Shares {
  ours: number;
  carriers: number;
  libraries: number;
  runtime: number;
}
/** Busy microseconds by owner (a package, `ours:<dir>/<name>`, `node`, or a runtime frame), and the four shares. */
export function profileOwners(profile: CpuProfile): { owners: Map<string, number>; shares: Shares };
export function ownersReport(
  summary: { owners: Map<string, number>; shares: Shares },
  top?: number,
): string[];
