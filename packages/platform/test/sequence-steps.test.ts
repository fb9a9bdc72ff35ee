import { askedTogether, takeInOrder } from '../src/store/engine/sequence-steps';
import type { SequenceStep } from '../src/store/engine/types';

describe('takeInOrder (nextMany on any engine)', () => {
  it('takes each name once, its total, and hands the ranges out in the order asked', async () => {
    const asked: [string, number][] = [];
    const lasts = await takeInOrder(
      [
        { name: 'b', count: 2 },
        { name: 'a', count: 1 },
        { name: 'b', count: 3 },
      ],
      async (totals) => {
        asked.push(...totals);
        // b was at 0 (takes 1–5), a at 10 (takes 11).
        return new Map([
          ['b', 5],
          ['a', 11],
        ]);
      },
    );
    expect(asked).toEqual([
      ['b', 5],
      ['a', 1],
    ]);
    // The first step of b the lower range (1–2), the second the next (3–5), whatever the engine's order.
    expect(lasts).toEqual([2, 11, 5]);
  });

  it('asks nothing for no steps', async () => {
    const take = jest.fn();
    expect(await takeInOrder([], take)).toEqual([]);
    expect(take).not.toHaveBeenCalled();
  });
});

describe('askedTogether (steps asked side by side take one engine step)', () => {
  /** An engine whose counters start at 0, recording each nextMany it is sent. */
  function engine() {
    const sent: SequenceStep[][] = [];
    const seq = new Map<string, number>();
    const nextMany = jest.fn(async (steps: SequenceStep[]) => {
      sent.push(steps);
      return takeInOrder(steps, async (totals) => {
        for (const [name, count] of totals) seq.set(name, (seq.get(name) ?? 0) + count);
        return new Map([...totals.keys()].map((name) => [name, seq.get(name)!]));
      });
    });
    return { sent, nextMany };
  }

  it('sends the steps of callers in one synchronous stretch as one, each caller its own numbers', async () => {
    const e = engine();
    const next = askedTogether(e.nextMany);
    const [entries, lines] = await Promise.all([
      next([
        { name: 'feed:a', count: 1 },
        { name: 'feed:b', count: 1 },
      ]),
      next([
        { name: 'transactions', count: 2 },
        { name: 'feed:a', count: 1 },
      ]),
    ]);
    expect(e.sent).toHaveLength(1);
    // feed:a asked by both: the first caller the lower number.
    expect(entries).toEqual([1, 1]);
    expect(lines).toEqual([2, 2]);
  });

  it('sends what is asked later on its own, and asks nothing for no steps', async () => {
    const e = engine();
    const next = askedTogether(e.nextMany);
    expect(await next([{ name: 'n', count: 1 }])).toEqual([1]);
    expect(await next([{ name: 'n', count: 3 }])).toEqual([4]);
    expect(await next([])).toEqual([]);
    expect(e.sent).toHaveLength(2);
  });

  it("fails every caller of a step that fails, and not the next step's", async () => {
    let fail = true;
    const next = askedTogether(async (steps) => {
      if (fail) throw new Error('the database went away');
      return steps.map((s) => s.count);
    });
    const both = [next([{ name: 'x', count: 1 }]), next([{ name: 'y', count: 2 }])];
    await expect(Promise.all(both.map((p) => p.catch((e: Error) => e.message)))).resolves.toEqual([
      'the database went away',
      'the database went away',
    ]);
    fail = false;
    expect(await next([{ name: 'z', count: 5 }])).toEqual([5]);
  });
});
