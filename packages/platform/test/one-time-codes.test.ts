import { setTimeout as sleep } from 'node:timers/promises';
import {
  checkCountFirst,
  type CountedCode,
  type IssuedOtp,
  issueOtp,
  limitConcurrency,
  OTP_MAX_ATTEMPTS,
  OTP_MESSAGES,
} from '../src/one-time-codes';

describe('limitConcurrency', () => {
  it('runs at most the given number at once, the rest in arrival order, and passes failures on', async () => {
    const limit = limitConcurrency(2);
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    const task = (i: number) => async () => {
      started.push(i);
      running++;
      peak = Math.max(peak, running);
      await sleep(5);
      running--;
      if (i === 3) throw new Error('three');
      return i;
    };
    const results = await Promise.allSettled([0, 1, 2, 3, 4, 5].map((i) => limit(task(i))));
    expect(peak).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([
      0,
      1,
      2,
      'three',
      4,
      5,
    ]);
  });
});

/**
 * A store that behaves as the conditional update does (attempts < max and not expired, one at a
 * time) and counts how many guesses were compared, i.e. got an attempt.
 */
function memoryCode(record: IssuedOtp | null) {
  let rec = record;
  const store: CountedCode<IssuedOtp> & { compared: number } = {
    compared: 0,
    async reserveAttempt(now) {
      await sleep(0);
      if (!rec || rec.attempts >= OTP_MAX_ATTEMPTS || now.getTime() > rec.expiresAt.getTime()) return null;
      rec = { ...rec, attempts: rec.attempts + 1 };
      store.compared++;
      return rec;
    },
    current: async () => rec,
    async refundAttempt(r) {
      if (rec && rec.codeHash === r.codeHash && rec.attempts > 0)
        rec = { ...rec, attempts: rec.attempts - 1 };
    },
  };
  return {
    store,
    get record() {
      return rec;
    },
  };
}

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => 'accepted',
    (err: Error) => err.message,
  );

describe('checkCountFirst', () => {
  const now = new Date('2026-11-27T12:00:00Z');

  it('compares at most 5 of 40 parallel guesses; the right one among them, late, is refused', async () => {
    const { code, otp } = await issueOtp(now);
    const { store } = memoryCode(otp);
    const wrong = code === '000000' ? '111111' : '000000';
    const guesses = Array.from({ length: 40 }, (_, i) => (i === 30 ? code : wrong));
    const answers = await Promise.all(guesses.map((g) => refusal(checkCountFirst(store, g, now))));
    expect(store.compared).toBe(OTP_MAX_ATTEMPTS);
    expect(answers.filter((a) => a === 'accepted')).toEqual([]);
    expect(answers.filter((a) => a.startsWith('Invalid OTP')).sort()).toEqual([
      OTP_MESSAGES.wrong(1),
      OTP_MESSAGES.wrong(2),
      OTP_MESSAGES.wrong(3),
      OTP_MESSAGES.wrong(4),
    ]);
    expect(answers.filter((a) => a === OTP_MESSAGES.locked)).toHaveLength(36);
    expect(await refusal(checkCountFirst(store, code, now))).toBe(OTP_MESSAGES.locked);
  });

  it('a right code costs no attempt; none, expired and exhausted codes are refused without comparing', async () => {
    const { code, otp } = await issueOtp(now);
    const live = memoryCode({ ...otp, attempts: OTP_MAX_ATTEMPTS - 1 });
    expect(await checkCountFirst(live.store, code, now)).toMatchObject({ codeHash: otp.codeHash });
    expect(live.record?.attempts).toBe(OTP_MAX_ATTEMPTS - 1);

    expect(await refusal(checkCountFirst(memoryCode(null).store, code, now))).toBe(OTP_MESSAGES.missing);
    const later = new Date(otp.expiresAt.getTime() + 1);
    const expired = memoryCode(otp);
    expect(await refusal(checkCountFirst(expired.store, code, later))).toBe(OTP_MESSAGES.expired);
    const spent = memoryCode({ ...otp, attempts: OTP_MAX_ATTEMPTS });
    expect(await refusal(checkCountFirst(spent.store, code, now))).toBe(OTP_MESSAGES.locked);
    expect(expired.store.compared + spent.store.compared).toBe(0);
  });
});
