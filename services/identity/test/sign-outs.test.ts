import { retryDelayMs } from '../src/app/sign-outs';

describe('sign-out retries after a password change', () => {
  it('wait 5 s after the first failure, doubling up to 10 minutes', () => {
    expect([1, 2, 3, 4].map(retryDelayMs)).toEqual([5_000, 10_000, 20_000, 40_000]);
    expect(retryDelayMs(30)).toBe(600_000);
  });
});
