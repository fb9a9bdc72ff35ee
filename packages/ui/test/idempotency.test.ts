import { WALLET_MESSAGES } from '@qm/contracts/rest';
import { ApiError } from '../src/api';
import { IdempotentAttempt, outcomeUnknown } from '../src/idempotency';

const apiError = (status: number, message = 'x') => new ApiError(status, JSON.stringify({ message }));

describe('outcomeUnknown', () => {
  it('treats no answer, server errors and "still being processed" as unknown', () => {
    expect(outcomeUnknown(new TypeError('Failed to fetch'))).toBe(true);
    expect(outcomeUnknown(apiError(500))).toBe(true);
    expect(outcomeUnknown(apiError(503))).toBe(true);
    expect(outcomeUnknown(apiError(409, WALLET_MESSAGES.idempotencyInProgress))).toBe(true);
  });

  it('treats a refusal as final', () => {
    expect(outcomeUnknown(apiError(400, WALLET_MESSAGES.insufficientBalance))).toBe(false);
    expect(outcomeUnknown(apiError(423))).toBe(false);
    expect(outcomeUnknown(apiError(429))).toBe(false);
    expect(outcomeUnknown(apiError(409, WALLET_MESSAGES.idempotencyMismatch(['amount'])))).toBe(false);
  });
});

describe('IdempotentAttempt', () => {
  const counter = () => {
    let n = 0;
    return () => `key-${++n}`;
  };

  it('reuses the key for a retry of the same body while the outcome is unknown', () => {
    const attempt = new IdempotentAttempt(counter());
    const body = { receiverUsername: 'bob', amount: '123.45', pin: '123456' };
    expect(attempt.keyFor(body)).toBe('key-1');
    attempt.settle(new TypeError('Failed to fetch'));
    expect(attempt.keyFor({ ...body })).toBe('key-1');
    attempt.settle(apiError(502));
    expect(attempt.keyFor(body)).toBe('key-1');
  });

  it('takes a new key for another body, after a success and after a refusal', () => {
    const attempt = new IdempotentAttempt(counter());
    expect(attempt.keyFor({ amount: '500' })).toBe('key-1');
    expect(attempt.keyFor({ amount: '600' })).toBe('key-2');
    attempt.settle();
    expect(attempt.keyFor({ amount: '600' })).toBe('key-3');
    attempt.settle(apiError(400));
    expect(attempt.keyFor({ amount: '600' })).toBe('key-4');
  });

  it('makes UUIDs by default', () => {
    const key = new IdempotentAttempt().keyFor({ amount: '500' });
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
