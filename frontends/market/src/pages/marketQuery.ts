import { PRODUCT_TYPES, type ProductTypeName } from '@qm/contracts/rules';
import { MARKET_PAGE_SIZE, MARKET_STALE_MS, productsPageQuery } from '../api';

/** What the market shows, from its URL (so Back from a product returns to the same view). */
export interface MarketView {
  page: number;
  type?: ProductTypeName;
  q?: string;
}

function isProductType(value: string | null): value is ProductTypeName {
  return value !== null && (PRODUCT_TYPES as readonly string[]).includes(value);
}

export function readMarketView(search: URLSearchParams): MarketView {
  const page = Number(search.get('page'));
  const type = search.get('type');
  return {
    page: Number.isInteger(page) && page > 0 ? page : 1,
    type: isProductType(type) ? type : undefined,
    q: search.get('q')?.trim() || undefined,
  };
}

/** The market's products query, for the page and for its prefetch (routes.tsx): one key, one staleness. */
export const marketProductsQuery = ({ page, type, q }: MarketView) => ({
  ...productsPageQuery({ page, pageSize: MARKET_PAGE_SIZE, type, q }),
  staleTime: MARKET_STALE_MS,
});
