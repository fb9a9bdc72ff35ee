import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ORDER_MESSAGES, WALLET_MESSAGES } from '@qm/contracts/rest';
import { outcomeOf } from '../chaos/resolve';

const inProgress = [ORDER_MESSAGES.idempotencyInProgress, WALLET_MESSAGES.idempotencyInProgress];
const body = (message: string) => JSON.stringify({ message });

describe('what an answer says of a money call', () => {
  it('takes a key still being processed (409) as unknown: its first call may yet land', () => {
    // The run of 2026-11-27 09:19: the retry of a purchase whose orders process was killed mid-call got
    // this answer, was taken as refused, and the order its first call placed looked like an orphan.
    for (const message of inProgress) expect(outcomeOf(409, body(message))).toBe('unknown');
  });

  it('takes other refusals as failed, 5xx and no answer as unknown, 2xx as ok', () => {
    expect(outcomeOf(409, body(ORDER_MESSAGES.insufficientBalance))).toBe('failed');
    expect(outcomeOf(400, body('Invalid quantity'))).toBe('failed');
    expect(outcomeOf(503, body('Service temporarily unavailable.'))).toBe('unknown');
    expect(outcomeOf(0, '')).toBe('unknown');
    expect(outcomeOf(201, body('ok'))).toBe('ok');
  });

  it('is the same in the k6 workload (load/chaos.js), which cannot import the messages', () => {
    const source = readFileSync(path.join(__dirname, '..', 'chaos.js'), 'utf8');
    const literal = /const IN_PROGRESS = \/(.+)\/([a-z]*);/.exec(source);
    expect(literal).not.toBeNull();
    const pattern = new RegExp(literal![1]!, literal![2]);
    for (const message of inProgress) expect(pattern.test(body(message))).toBe(true);
    expect(pattern.test(body(ORDER_MESSAGES.insufficientBalance))).toBe(false);
  });
});
