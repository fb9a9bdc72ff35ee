import type { Product } from '@qm/contracts/rest';

/** The market's first page (frontends/market: MARKET_PAGE_SIZE), asked for as the market asks for it. */
export const PRODUCTS_URL = '/api/products?page=1&pageSize=24';

/** The cards the market draws in its first render (frontends/market MarketResults, FIRST_CARDS). */
export const FIRST_CARDS = 9;

export async function firstProducts(): Promise<Product[]> {
  const res = await fetch(PRODUCTS_URL, { credentials: 'include', headers: { Accept: 'application/json' } });
  if (!res.ok) throw new Error(`GET ${PRODUCTS_URL} answered ${res.status}`);
  return ((await res.json()) as Product[]).slice(0, FIRST_CARDS);
}

export function rootElement(): HTMLElement {
  const root = document.getElementById('root');
  if (!root) throw new Error('the floor page has no #root');
  return root;
}
