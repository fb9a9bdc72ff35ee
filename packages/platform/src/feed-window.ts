import { BUCKET_SIZE, type FeedPage } from './feeds';

/**
 * Every document of one owner's newest-first feed (feeds.ts) dated `since` or later: the bounded
 * read behind the admin dashboard's per-day charts on a backend that pushes down only equality.
 *
 * It reads page after page of BUCKET_SIZE (each at most two indexed equality reads), `concurrency`
 * pages at a time, and stops at the first page that holds nothing dated `since` or later: the cost
 * follows the documents inside the window, not the length of the feed. Feed numbers are taken at
 * insert, so number order is date order up to the moments between taking a number and writing;
 * stopping only on a page entirely older keeps such a straggler.
 */
export async function feedSince<T>(
  page: (page: number, pageSize: number) => Promise<FeedPage<T>>,
  dateOf: (doc: T) => Date,
  since: Date,
  concurrency = 4,
): Promise<T[]> {
  const inWindow = (doc: T) => dateOf(doc).getTime() >= since.getTime();
  const first = await page(1, BUCKET_SIZE);
  const found = first.items.filter(inWindow);
  if (found.length === 0) return found;
  const pages = Math.ceil(first.total / BUCKET_SIZE);
  for (let next = 2; next <= pages; next += concurrency) {
    const numbers = Array.from({ length: Math.min(concurrency, pages - next + 1) }, (_, i) => next + i);
    const batch = await Promise.all(numbers.map((n) => page(n, BUCKET_SIZE)));
    for (const { items } of batch) {
      const kept = items.filter(inWindow);
      if (kept.length === 0) return found;
      found.push(...kept);
    }
  }
  return found;
}
