import { groupCommit } from '../src/store/group-commit';

/** An apply that records each batch and finishes when the test lets it. */
function recorder() {
  const batches: Array<{ key: string; items: number[] }> = [];
  const gates: Array<() => void> = [];
  const apply = (key: string, items: number[]) => {
    batches.push({ key, items });
    return new Promise<number[]>((resolve) => gates.push(() => resolve(items.map((i) => i * 10))));
  };
  const openNext = async () => {
    while (!gates.length) await new Promise((r) => setImmediate(r));
    gates.shift()!();
  };
  return { batches, apply, openNext };
}

describe('group commit by key', () => {
  it('applies a lone call at once, alone', async () => {
    const r = recorder();
    const commit = groupCommit(r.apply, 10);
    const answer = commit('a', 1);
    expect(r.batches).toEqual([{ key: 'a', items: [1] }]);
    await r.openNext();
    await expect(answer).resolves.toBe(10);
  });

  it('applies the calls that arrived during a flight together, each answered its own result', async () => {
    const r = recorder();
    const commit = groupCommit(r.apply, 10);
    const answers = [1, 2, 3, 4].map((i) => commit('a', i));
    expect(r.batches).toHaveLength(1);
    await r.openNext();
    await r.openNext();
    await expect(Promise.all(answers)).resolves.toEqual([10, 20, 30, 40]);
    expect(r.batches).toEqual([
      { key: 'a', items: [1] },
      { key: 'a', items: [2, 3, 4] },
    ]);
  });

  it('keeps keys apart and batches no more than its maximum', async () => {
    const r = recorder();
    const commit = groupCommit(r.apply, 2);
    const answers = [commit('a', 1), commit('b', 9), commit('a', 2), commit('a', 3), commit('a', 4)];
    expect(r.batches.map((b) => b.key)).toEqual(['a', 'b']);
    for (let i = 0; i < 4; i++) await r.openNext();
    await expect(Promise.all(answers)).resolves.toEqual([10, 90, 20, 30, 40]);
    expect(r.batches).toEqual([
      { key: 'a', items: [1] },
      { key: 'b', items: [9] },
      { key: 'a', items: [2, 3] },
      { key: 'a', items: [4] },
    ]);
  });

  it('fails only the batch whose apply failed, and goes on with the next', async () => {
    let calls = 0;
    const commit = groupCommit(async (_key: string, items: number[]) => {
      calls++;
      await new Promise((r) => setImmediate(r));
      if (calls === 2) throw new Error('engine down');
      return items;
    }, 10);
    const first = commit('a', 1);
    const failed = [commit('a', 2), commit('a', 3)];
    const settled = Promise.allSettled(failed);
    await expect(first).resolves.toBe(1);
    expect((await settled).map((s) => s.status)).toEqual(['rejected', 'rejected']);
    await expect(commit('a', 4)).resolves.toBe(4);
  });
});
