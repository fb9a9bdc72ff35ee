import { HttpError } from './http/errors';

/**
 * Admission control in front of one line of one service (docs/adr/026, 041). At most
 * `maxInFlight` calls run at once; the next wait in line, first come first served, for at most
 * `maxWaitMs`, and at most `maxWaiting` of them. A call that cannot start in time is refused
 * before it is sent, so the client learns at once, with a 503 and Retry-After, that nothing happened
 * and that the same request (with the same Idempotency-Key) may be sent again. Without it a burst
 * is admitted whole, every call slows together and the gateway's deadline answers 504, whose
 * outcome nobody knows.
 */
export interface AdmissionLimits {
  maxInFlight: number;
  maxWaiting: number;
  maxWaitMs: number;
  /** What Retry-After tells a refused client, in whole seconds. */
  retryAfterSeconds: number;
}

/** What an admission control reports, for the gateway's metrics (http/metrics.ts). */
export interface AdmissionObserver {
  /** A call was sent after `waitedMs` in line (0 when a slot was free). */
  admitted(waitedMs: number): void;
  /** A call was refused: the line was full, or it waited maxWaitMs without a slot. */
  refused(reason: 'line-full' | 'waited-too-long'): void;
}

export interface Admission {
  run<T>(call: () => Promise<T>): Promise<T>;
  readonly inFlight: number;
  readonly waiting: number;
}

export const BUSY_MESSAGE = 'The service is busy. Please try again in a moment.';

/** The refusal of a call that was never sent: a 503 with Retry-After. */
const overloaded = (retryAfterSeconds: number) => new HttpError(503, BUSY_MESSAGE, retryAfterSeconds);

interface Waiter {
  start(): void;
  timer: NodeJS.Timeout;
}

export function createAdmission(limits: AdmissionLimits, observer?: AdmissionObserver): Admission {
  let inFlight = 0;
  const line: Waiter[] = [];

  /** A finished call hands its slot straight to the first in line, so the count never overshoots. */
  function release() {
    const next = line.shift();
    if (next) {
      clearTimeout(next.timer);
      next.start();
    } else inFlight--;
  }

  async function run<T>(call: () => Promise<T>): Promise<T> {
    let waitedMs = 0;
    if (inFlight < limits.maxInFlight) inFlight++;
    else if (line.length >= limits.maxWaiting) {
      observer?.refused('line-full');
      throw overloaded(limits.retryAfterSeconds);
    } else {
      const queuedAt = performance.now();
      await new Promise<void>((start, refuse) => {
        const waiter: Waiter = {
          start,
          timer: setTimeout(() => {
            line.splice(line.indexOf(waiter), 1);
            observer?.refused('waited-too-long');
            refuse(overloaded(limits.retryAfterSeconds));
          }, limits.maxWaitMs),
        };
        line.push(waiter);
      });
      waitedMs = performance.now() - queuedAt;
    }
    observer?.admitted(waitedMs);
    try {
      return await call();
    } finally {
      release();
    }
  }

  return {
    run,
    get inFlight() {
      return inFlight;
    },
    get waiting() {
      return line.length;
    },
  };
}
