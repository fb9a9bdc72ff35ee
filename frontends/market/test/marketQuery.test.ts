import { MARKET_PAGE_SIZE, MARKET_STALE_MS } from '../src/api';
import { marketProductsQuery, readMarketView } from '../src/pages/marketQuery';

const view = (search: string) => readMarketView(new URLSearchParams(search));

describe("readMarketView (the market's URL, read by the page and by its prefetch)", () => {
  it('reads the page, the type and the search text', () => {
    expect(view('?page=3&type=Vehicle&q=%20radio%20')).toEqual({ page: 3, type: 'Vehicle', q: 'radio' });
  });

  it('falls back to the first page of everything for what it cannot read', () => {
    for (const search of ['', '?page=0', '?page=-2', '?page=1.5', '?page=x', '?type=Spaceship', '?q=%20%20'])
      expect(view(search)).toEqual({ page: 1, type: undefined, q: undefined });
  });
});

describe('marketProductsQuery', () => {
  it('asks for a page of the market size, fresh as long as the page keeps it', () => {
    const query = marketProductsQuery({ page: 2, q: 'radio' });
    expect(query.queryKey).toEqual([
      ...query.queryKey.slice(0, -1),
      { page: 2, pageSize: MARKET_PAGE_SIZE, type: undefined, q: 'radio' },
    ]);
    expect(query.staleTime).toBe(MARKET_STALE_MS);
  });
});
