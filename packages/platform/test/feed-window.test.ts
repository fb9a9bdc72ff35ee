import { BUCKET_SIZE, feedSince } from '../src';

/** A newest-first feed of `n` documents, one a minute up to `newest`, counting the pages read. */
function feed(n: number, newest: Date) {
  const docs = Array.from({ length: n }, (_, i) => ({
    seq: n - i,
    at: new Date(newest.getTime() - i * 60_000),
  }));
  const read: number[] = [];
  const page = async (p: number, size: number) => {
    read.push(p);
    return { items: docs.slice((p - 1) * size, p * size), total: n };
  };
  return { docs, read, page };
}

describe('feedSince', () => {
  const newest = new Date('2026-11-23T12:00:00.000Z');

  it('answers exactly the documents since the date and reads no page past the first entirely older one', async () => {
    const f = feed(10 * BUCKET_SIZE, newest);
    const since = new Date(newest.getTime() - (2 * BUCKET_SIZE + 5) * 60_000);
    const out = await feedSince(f.page, (d) => d.at, since, 1);
    expect(out.map((d) => d.seq)).toEqual(f.docs.slice(0, 2 * BUCKET_SIZE + 6).map((d) => d.seq));
    expect(f.read).toEqual([1, 2, 3, 4]);
  });

  it('reads every page of a feed younger than the window, a few at a time', async () => {
    const f = feed(3 * BUCKET_SIZE + 1, newest);
    const out = await feedSince(f.page, (d) => d.at, new Date(0), 2);
    expect(out).toHaveLength(3 * BUCKET_SIZE + 1);
    expect(f.read.sort()).toEqual([1, 2, 3, 4]);
  });

  it('reads one page of an empty feed or one older than the window', async () => {
    const empty = feed(0, newest);
    expect(await feedSince(empty.page, (d) => d.at, new Date(0))).toEqual([]);
    const old = feed(5 * BUCKET_SIZE, newest);
    expect(await feedSince(old.page, (d) => d.at, new Date(newest.getTime() + 1))).toEqual([]);
    expect(old.read).toEqual([1]);
  });
});
