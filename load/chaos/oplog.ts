/**
 * The chaos run's operation log (load/chaos.js): k6 writes each console line as a JSON log record
 * (`--log-format=json --console-output=<file>`), and not always one per line, so the records are
 * found by their `"msg"` field rather than by lines. The workload's own records are JSON objects
 * with a `chaos` field: `user` (a session the checker may act as), `ready` (setup done), `invoke`
 * (a call about to be sent) and `end` (its outcome).
 */

export type Outcome = 'ok' | 'failed' | 'unknown';

export interface Op {
  id: string;
  op: string;
  /** The Idempotency-Key of a money call. */
  key?: string;
  /** The caller's user id (money calls). */
  user?: number;
  method: string;
  path: string;
  body?: unknown;
  /** Top-up steps: the provider order they belong to. */
  orderId?: string;
  invokedAt: number;
  endedAt?: number;
  /** An op invoked and never ended (k6 stopped in between) is unknown. */
  outcome: Outcome;
  status?: number;
  answer?: Record<string, string | number | boolean>;
}

export interface User {
  id: number;
  username: string;
  cookie: string;
}

export interface OpLog {
  users: Map<number, User>;
  ops: Op[];
  /** When the workload's setup ended (ms since the epoch); kills start after it. */
  readyAt?: number;
}

/** The `msg` strings of k6's JSON log records, in order. */
export function logMessages(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/"msg":"((?:[^"\\]|\\.)*)"/g)) out.push(JSON.parse(`"${m[1]}"`) as string);
  return out;
}

type Rec = Record<string, unknown> & { chaos?: string };

export function parseOpLog(text: string): OpLog {
  const users = new Map<number, User>();
  const byId = new Map<string, Op>();
  let readyAt: number | undefined;
  for (const msg of logMessages(text)) {
    if (!msg.startsWith('{"chaos":')) continue;
    const r = JSON.parse(msg) as Rec;
    switch (r.chaos) {
      case 'user':
        users.set(Number(r.id), { id: Number(r.id), username: String(r.username), cookie: String(r.cookie) });
        break;
      case 'ready':
        readyAt = Number(r.at);
        break;
      case 'invoke':
        byId.set(String(r.id), {
          id: String(r.id),
          op: String(r.op),
          key: r.key === undefined ? undefined : String(r.key),
          user: r.user === undefined ? undefined : Number(r.user),
          method: String(r.method),
          path: String(r.path),
          body: r.body,
          orderId: r.orderId === undefined ? undefined : String(r.orderId),
          invokedAt: Number(r.at),
          outcome: 'unknown',
        });
        break;
      case 'end': {
        const op = byId.get(String(r.id));
        if (!op) throw new Error(`op log: end of ${String(r.id)} without its invoke`);
        op.endedAt = Number(r.at);
        op.outcome = r.outcome as Outcome;
        op.status = Number(r.status);
        op.answer = (r.answer as Op['answer']) ?? undefined;
        break;
      }
      default:
        break;
    }
  }
  return { users, ops: [...byId.values()], readyAt };
}
