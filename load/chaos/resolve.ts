import { ORDER_MESSAGES, WALLET_MESSAGES } from '@qm/contracts/rest';
import type { Op, OpLog, Outcome } from './oplog';
import type { Resolution } from './verify';

/**
 * Resolving the calls whose outcome the client never learnt: each unknown money call is sent again
 * as its caller, with the same Idempotency-Key and body (Stripe's semantics: the first outcome
 * again, or the call's one run if it never ran), until it answers definitely. The effect count is
 * taken just before, so the checker can tell that the retry added nothing to an effect that landed.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The services' answer (409) to a key whose first call is still running, or whose process died
 * before it finished (until its claim goes stale): that first call may yet take effect.
 */
const IN_PROGRESS = [ORDER_MESSAGES.idempotencyInProgress, WALLET_MESSAGES.idempotencyInProgress];

/**
 * As load/chaos.js classifies: 5xx, no answer and "still being processed" are still unknown. A 503
 * with Retry-After (shed, never sent) is definite for the call that got it in load/chaos.js, but a
 * retry shed here says nothing of the first call, so it stays unknown and is retried.
 */
export function outcomeOf(status: number, body: string): Outcome {
  if (status >= 200 && status < 300) return 'ok';
  if (status === 0 || status >= 500) return 'unknown';
  if (status === 409 && IN_PROGRESS.some((message) => body.includes(message))) return 'unknown';
  return 'failed';
}

/** The calls worth retrying: unknown money calls (those with a key) and unknown sandbox payments. */
export const toResolve = (log: OpLog): Op[] =>
  log.ops.filter(
    (o) => o.outcome === 'unknown' && o.user !== undefined && (o.key !== undefined || o.op === 'sandbox-pay'),
  );

export async function resolveUnknown(
  log: OpLog,
  {
    baseUrl,
    effectsOf,
    attempts = 20,
    pauseMs = 3000,
    concurrency = 8,
  }: {
    baseUrl: string;
    effectsOf: (op: Op) => Promise<number>;
    attempts?: number;
    pauseMs?: number;
    concurrency?: number;
  },
): Promise<Map<string, Resolution>> {
  const out = new Map<string, Resolution>();
  // One caller's calls one after another, as its client would; callers side by side.
  const byUser = new Map<number, Op[]>();
  for (const op of toResolve(log)) byUser.set(op.user!, [...(byUser.get(op.user!) ?? []), op]);
  const queue = [...byUser.values()];
  const worker = async () => {
    for (let calls = queue.shift(); calls; calls = queue.shift())
      for (const op of calls) out.set(op.id, await resolveOne(op));
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, worker));
  return out;

  async function resolveOne(op: Op): Promise<Resolution> {
    const user = log.users.get(op.user!);
    if (!user) throw new Error(`op log: call ${op.id} by user ${op.user}, whose session was not logged`);
    const effectsBefore = await effectsOf(op);
    let last: Resolution = { outcome: 'unknown', status: 0, effectsBefore };
    for (let i = 0; i < attempts && last.outcome === 'unknown'; i++) {
      if (i) await sleep(pauseMs);
      try {
        const res = await fetch(`${baseUrl}${op.path}`, {
          method: op.method,
          headers: {
            'content-type': 'application/json',
            origin: baseUrl,
            cookie: user.cookie,
            ...(op.key ? { 'idempotency-key': op.key } : {}),
          },
          body: op.body === undefined ? undefined : JSON.stringify(op.body),
          signal: AbortSignal.timeout(15_000),
        });
        const text = await res.text();
        let answer: Resolution['answer'];
        try {
          answer = JSON.parse(text) as Resolution['answer'];
        } catch {
          answer = undefined;
        }
        last = { outcome: outcomeOf(res.status, text), status: res.status, answer, effectsBefore };
      } catch {
        last = { outcome: 'unknown', status: 0, effectsBefore };
      }
    }
    return last;
  }
}
