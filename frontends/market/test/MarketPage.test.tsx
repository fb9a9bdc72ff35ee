import { MantineProvider } from '@mantine/core';
import { CURRENT_USER_QUERY_KEY } from '@qm/ui';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import type { Product } from '../src/api';
import { MarketPage } from '../src/pages/MarketPage';
import { marketProductsQuery } from '../src/pages/marketQuery';

const product = (id: number): Product => ({
  id,
  name: `Field radio ${id}`,
  type: 'Equipment',
  price: '1250.00',
  description: 'A radio',
  stock: 5,
  manufacturerId: 3,
  status: 'active',
  createdAt: '2026-12-01T00:00:00.000Z',
  updatedAt: '2026-12-01T00:00:00.000Z',
  version: 1,
});

/**
 * The page's first render, as React renders it before any effect or deferred update: what a render
 * on the server gives, and what the browser commits first.
 */
const clients: QueryClient[] = [];
afterEach(() => clients.splice(0).forEach((client) => client.clear()));

function firstRender(client: QueryClient): string {
  clients.push(client);
  client.setQueryData(CURRENT_USER_QUERY_KEY, { id: 7, username: 'army_demo', role: 'Army', isAdmin: false });
  return renderToString(
    <MantineProvider>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={['/market']}>
          <MarketPage />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe("MarketPage's first render", () => {
  it('draws the cards at once when the products are already there (prefetched with the page)', () => {
    const client = new QueryClient();
    client.setQueryData(marketProductsQuery({ page: 1 }).queryKey, {
      items: [product(1), product(2)],
      total: 2,
    });
    const html = firstRender(client);
    expect(html).toContain('Field radio 1');
    expect(html).toContain('Field radio 2');
    expect(html).not.toContain('Loading products');
  });

  it('draws the skeletons while the products are still on their way', () => {
    const html = firstRender(new QueryClient());
    expect(html).toContain('Loading products');
    expect(html).not.toContain('data-testid="product-card"');
  });
});
