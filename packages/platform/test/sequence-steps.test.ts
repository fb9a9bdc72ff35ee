import { takeInOrder } from '../src/store/engine/sequence-steps';

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
