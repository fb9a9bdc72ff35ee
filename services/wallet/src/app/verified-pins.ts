import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';

export interface VerifiedPins {
  /** Whether this PIN matched this stored hash for the user recently (and is still remembered). */
  matches(userId: number, storedHash: string, pin: string): boolean;
  remember(userId: number, storedHash: string, pin: string): void;
  /** Drops the user's entry, so their next PIN takes the slow path. */
  forget(userId: number): void;
}

/**
 * PINs this process verified recently, so a user's next transfers skip the slow hash (scrypt costs
 * ~30 ms of a core; docs/adr/009). Each entry is an HMAC, under a key that never leaves this
 * process, of the user, the stored hash the PIN matched and the PIN: a new PIN (another stored
 * hash) misses, entries expire after `ttlMs`, and nothing in it helps an offline guess of the PIN.
 * Only a match is remembered; a wrong PIN always takes the slow path and counts as a failure.
 */
export function createVerifiedPins({ max = 10_000, ttlMs = 15 * 60_000 } = {}): VerifiedPins {
  const key = randomBytes(32);
  const cache = new LRUCache<number, Buffer>({ max, ttl: ttlMs });
  const tag = (userId: number, storedHash: string, pin: string) =>
    createHmac('sha256', key).update(`${userId}\0${storedHash}\0${pin}`).digest();

  return {
    matches(userId: number, storedHash: string, pin: string): boolean {
      const known = cache.get(userId);
      return !!known && timingSafeEqual(known, tag(userId, storedHash, pin));
    },
    remember(userId: number, storedHash: string, pin: string): void {
      cache.set(userId, tag(userId, storedHash, pin));
    },
    forget(userId: number): void {
      cache.delete(userId);
    },
  };
}
