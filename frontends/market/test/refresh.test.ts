import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { PRODUCTS_KEY } from '../src/api';
import { refreshAfterPurchase } from '../src/orders/api';

/** A product query shown on a page (an observer makes it active), counting its fetches. */
async function shownProduct(client: QueryClient) {
  let fetches = 0;
  const observer = new QueryObserver(client, {
    queryKey: [...PRODUCTS_KEY, 1],
    queryFn: () => ++fetches,
    staleTime: 30_000,
  });
  const unsubscribe = observer.subscribe(() => {});
  await client.fetchQuery({ queryKey: [...PRODUCTS_KEY, 1] });
  return { fetches: () => fetches, unsubscribe, stale: () => observer.getCurrentResult().isStale };
}

describe('refreshAfterPurchase', () => {
  it('reads the shown product again, so the page shows the stock left after a purchase', async () => {
    const client = new QueryClient();
    const product = await shownProduct(client);
    const before = product.fetches();
    await refreshAfterPurchase(client);
    expect(product.fetches()).toBe(before + 1);
    product.unsubscribe();
  });
});
