// The floor of the design's libraries: React, React Router, React Query and Mantine in one bundle, with
// the market's own product card (manufacturer lookups and all), and nothing of the shell or federation.
import '@mantine/core/styles.css';
import { MantineProvider, SimpleGrid } from '@mantine/core';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { ProductCard } from '../../../frontends/market/src/components/ProductCard';
import { firstProducts, rootElement } from './products';

function Cards() {
  const { data = [] } = useQuery({ queryKey: ['floor-products'], queryFn: firstProducts });
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg">
      {data.map((product) => (
        <ProductCard
          key={product.id}
          product={product}
          isOwner={false}
          canPurchase
          onEdit={() => undefined}
          onDelete={() => undefined}
        />
      ))}
    </SimpleGrid>
  );
}

const router = createBrowserRouter([{ path: '*', element: <Cards /> }]);
createRoot(rootElement()).render(
  <MantineProvider>
    <QueryClientProvider client={new QueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </MantineProvider>,
);
