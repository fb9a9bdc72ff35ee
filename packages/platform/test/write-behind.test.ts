import { writeBehind } from '../src/events/write-behind';

describe('writes gathered behind their callers (docs/adr/052)', () => {
  const recorder = (opts: { gatherMs?: number; max?: number; fails?: boolean } = {}) => {
    const writes: number[][] = [];
    const failures: number[][] = [];
    const w = writeBehind<number>(
      async (items) => {
        writes.push(items);
        if (opts.fails) throw new Error('database gone');
      },
      { gatherMs: opts.gatherMs ?? 30, max: opts.max ?? 100, failed: (_err, items) => failures.push(items) },
    );
    return { w, writes, failures };
  };
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('writes what comes within the gathering time in one write, once the time is up', async () => {
    const { w, writes } = recorder();
    w.add(1);
    w.add(2, 3);
    expect(writes).toEqual([]);
    await sleep(60);
    expect(writes).toEqual([[1, 2, 3]]);
    w.add(4);
    await sleep(60);
    expect(writes).toEqual([[1, 2, 3], [4]]);
  });

  it('writes at once when as many as allowed are waiting', () => {
    const { w, writes } = recorder({ gatherMs: 60_000, max: 3 });
    w.add(1, 2);
    expect(writes).toEqual([]);
    w.add(3);
    expect(writes).toEqual([[1, 2, 3]]);
  });

  it('flush writes what waits and resolves when every write begun has ended', async () => {
    let release!: () => void;
    const writes: number[][] = [];
    const w = writeBehind<number>(
      (items) => {
        writes.push(items);
        return new Promise<void>((r) => (release = r));
      },
      { gatherMs: 60_000, max: 100, failed: () => undefined },
    );
    w.add(1);
    let flushed = false;
    const flushing = w.flush().then(() => (flushed = true));
    await sleep(5);
    expect(writes).toEqual([[1]]);
    expect(flushed).toBe(false);
    release();
    await flushing;
    expect(flushed).toBe(true);
    await w.flush();
    expect(writes).toEqual([[1]]);
  });

  it('reports a failed write with its items and drops them', async () => {
    const { w, writes, failures } = recorder({ fails: true });
    w.add(7, 8);
    await w.flush();
    expect(failures).toEqual([[7, 8]]);
    w.add(9);
    await w.flush();
    expect(writes).toEqual([[7, 8], [9]]);
    expect(failures).toEqual([[7, 8], [9]]);
  });
});
