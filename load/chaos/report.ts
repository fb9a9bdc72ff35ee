import type { OpLog, Outcome } from './oplog';

/** The README's tables of a chaos run: operations by outcome, kills by process, invariants. */

export interface Kill {
  process: string;
  atS: number | null;
  restartMs: number | null;
  healthy: boolean;
  /** Not killed: it exited on its own (another process's kill took it down) and was started again. */
  crashed?: boolean;
  /** Found unhealthy after the run and restarted. */
  heal?: boolean;
}

export interface Invariant {
  name: string;
  ok: boolean;
  detail: string;
}

export interface RunReport {
  workload: string;
  at: string;
  ops: Record<string, Record<Outcome | 'unknown→0' | 'unknown→1', number>>;
  kills: Record<
    string,
    { kills: number; crashes: number; medianRestartS: number | null; maxRestartS: number | null }
  >;
  invariants: Invariant[];
  drainS: number;
}

/**
 * Calls by op and outcome. `effectsAfter` answers an unknown call's effects as the data shows them
 * (money calls once retried, refund calls from their order), undefined when nothing judges them.
 */
export function opsTable(log: OpLog, effectsAfter: (id: string) => number | undefined) {
  const table: RunReport['ops'] = {};
  for (const op of log.ops) {
    const row = (table[op.op] ??= { ok: 0, failed: 0, unknown: 0, 'unknown→0': 0, 'unknown→1': 0 });
    row[op.outcome]++;
    const n = op.outcome === 'unknown' ? effectsAfter(op.id) : undefined;
    if (n !== undefined) row[`unknown→${n ? 1 : 0}`]++;
  }
  return table;
}

export function killsTable(kills: Kill[]): RunReport['kills'] {
  const out: RunReport['kills'] = {};
  const byProcess = new Map<string, Kill[]>();
  for (const k of kills) byProcess.set(k.process, [...(byProcess.get(k.process) ?? []), k]);
  for (const [name, list] of [...byProcess].sort(([a], [b]) => a.localeCompare(b))) {
    const times = list
      .map((k) => k.restartMs)
      .filter((t): t is number => t !== null)
      .sort((a, b) => a - b);
    out[name] = {
      kills: list.filter((k) => !k.crashed && !k.heal).length,
      crashes: list.filter((k) => k.crashed || k.heal).length,
      medianRestartS: times.length ? round1(times[Math.floor(times.length / 2)]! / 1000) : null,
      maxRestartS: times.length ? round1(times[times.length - 1]! / 1000) : null,
    };
  }
  return out;
}

const round1 = (x: number) => Math.round(x * 10) / 10;

export function markdown(r: RunReport): string {
  const lines = [`Chaos run of ${r.at}: ${r.workload}; drained in ${r.drainS} s.`, ''];
  lines.push('| operation | ok | failed | unknown | unknown → 0 effects | unknown → 1 effect |');
  lines.push('|---|--:|--:|--:|--:|--:|');
  const sum = { ok: 0, failed: 0, unknown: 0, z: 0, o: 0 };
  for (const [op, row] of Object.entries(r.ops).sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(
      `| ${op} | ${row.ok} | ${row.failed} | ${row.unknown} | ${row['unknown→0']} | ${row['unknown→1']} |`,
    );
    sum.ok += row.ok;
    sum.failed += row.failed;
    sum.unknown += row.unknown;
    sum.z += row['unknown→0'];
    sum.o += row['unknown→1'];
  }
  lines.push(`| **all** | ${sum.ok} | ${sum.failed} | ${sum.unknown} | ${sum.z} | ${sum.o} |`, '');
  lines.push(
    '| process | SIGKILLs | exits on its own | median restart to healthy | slowest |',
    '|---|--:|--:|--:|--:|',
  );
  const secs = (x: number | null) => (x === null ? '–' : `${x} s`);
  for (const [name, k] of Object.entries(r.kills))
    lines.push(
      `| ${name} | ${k.kills} | ${k.crashes} | ${secs(k.medianRestartS)} | ${secs(k.maxRestartS)} |`,
    );
  lines.push('', '| invariant | result | detail |', '|---|---|---|');
  for (const i of r.invariants)
    lines.push(`| ${i.name} | ${i.ok ? 'holds' : '**BROKEN**'} | ${i.detail.replaceAll('|', '\\|')} |`);
  return `${lines.join('\n')}\n`;
}
