import { windowedSweep, windowOf } from '../src/windows';

const W = 10_000;
const at = (window: number, plus = 0) => new Date(window * W + plus);

function recorder(batches: boolean[] = []) {
  const asked: (number | string)[] = [];
  const sweep = windowedSweep({
    windowMs: W,
    catchUpEveryMs: 3_600_000,
    async catchUp(due) {
      asked.push(`catch-up before ${windowOf(due, W)}`);
      return { handled: 1, complete: batches.shift() ?? true };
    },
    async window(window) {
      asked.push(window);
      return 2;
    },
  });
  return { asked, sweep };
}

describe('windowedSweep', () => {
  it('catches up once, then asks each window that ended, once', async () => {
    const { asked, sweep } = recorder();
    expect(await sweep(at(100, 5))).toBe(1);
    // Window 100 had not ended at the catch-up: it is asked once it has.
    expect(await sweep(at(100, 9_999))).toBe(0);
    expect(await sweep(at(103))).toBe(6);
    expect(await sweep(at(103, 1))).toBe(0);
    expect(asked).toEqual(['catch-up before 100', 100, 101, 102]);
  });

  it('goes on catching up while a catch-up stops at its batch', async () => {
    const { asked, sweep } = recorder([false, false, true]);
    for (let i = 0; i < 4; i++) await sweep(at(200 + i));
    expect(asked).toEqual(['catch-up before 200', 'catch-up before 201', 'catch-up before 202', 202]);
  });

  it('catches up again after catchUpEveryMs, for anything a window missed', async () => {
    const { asked, sweep } = recorder();
    await sweep(at(300), at(300));
    await sweep(at(301), at(301));
    await sweep(at(302), new Date(at(300).getTime() + 3_600_000));
    expect(asked).toEqual(['catch-up before 300', 300, 'catch-up before 302']);
  });

  it('asks by when the work is due, whatever the clock', async () => {
    const { asked, sweep } = recorder();
    // Markers are due two minutes after settling: `due` trails `now`.
    await sweep(at(400), at(412));
    await sweep(at(402), at(414));
    expect(asked).toEqual(['catch-up before 400', 400, 401]);
  });
});
