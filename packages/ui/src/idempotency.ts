import { WALLET_MESSAGES } from '@qm/contracts/rest';
import { ApiError } from './api';
import { useState } from 'react';
import { v4 as uuidv4 } from 'uuid';

/**
 * Whether the server may have acted on a failed request, so that a retry must carry the same
 * Idempotency-Key: no answer at all (network, timeout), a server error, or "still being processed".
 * A refusal (4xx, including a rate limit or a PIN lock) is final: the next try is a new attempt with a
 * new key.
 */
export function outcomeUnknown(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  if (error.status >= 500) return true;
  return error.status === 409 && error.serverMessage === WALLET_MESSAGES.idempotencyInProgress;
}

/**
 * One submission attempt of a money-moving form: the same body keeps its key until the outcome is
 * known, so pressing the button again after a lost answer cannot move the money twice; a changed body,
 * a success or a refusal starts a new attempt.
 */
export class IdempotentAttempt {
  private current: { key: string; fingerprint: string } | null = null;

  // uuid's v4 uses crypto.getRandomValues, which (unlike crypto.randomUUID) also works over plain http.
  constructor(private readonly newKey: () => string = uuidv4) {}

  keyFor(body: unknown): string {
    const fingerprint = JSON.stringify(body);
    if (this.current?.fingerprint !== fingerprint) this.current = { key: this.newKey(), fingerprint };
    return this.current.key;
  }

  /** Call with the error of a failed request, or nothing after a success. */
  settle(error?: unknown): void {
    if (error === undefined || !outcomeUnknown(error)) this.current = null;
  }
}

/** An attempt that lives as long as the component (a dialog's content mounts per opening). */
export function useIdempotentAttempt(): IdempotentAttempt {
  const [attempt] = useState(() => new IdempotentAttempt());
  return attempt;
}
