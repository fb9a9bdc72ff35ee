import { Button, Stack } from '@mantine/core';
import { ORDER_MESSAGES } from '@qm/contracts/rest';
import { ApiError, EmptyState, LoadError, PageLoader, useCurrentUser } from '@qm/ui';
import { IconArrowLeft, IconPackageOff, IconShoppingCartOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useParams } from 'react-router-dom';
import { productQuery, recordProductView } from '../api';
import { PurchaseCard } from '../purchase/PurchaseCard';

function parseProductId(value: string | undefined): number | null {
  if (!value || !/^\d+$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

function BackToMarket() {
  return (
    <Button
      component={Link}
      to="/market"
      variant="subtle"
      leftSection={<IconArrowLeft size={16} />}
      w="fit-content"
    >
      Back to Market
    </Button>
  );
}

function ProductNotFound() {
  return (
    <EmptyState
      icon={<IconPackageOff size={26} />}
      title={ORDER_MESSAGES.productNotFound}
      description={ORDER_MESSAGES.productNotFoundDetail}
      action={
        <Button component={Link} to="/market" mt="sm">
          Back to Market
        </Button>
      }
    />
  );
}

/** Administrators oversee orders and place none (they have no wallet to pay from). */
function NoAdminPurchases() {
  return (
    <Stack gap="lg" maw={720} mx="auto">
      <BackToMarket />
      <EmptyState
        icon={<IconShoppingCartOff size={26} />}
        title="Administrators do not make purchases"
        description="Purchases are made by Army and Manufacturer accounts. Every order is under Admin → Orders."
        action={
          <Button component={Link} to="/admin/orders" mt="sm">
            View all orders
          </Button>
        }
      />
    </Stack>
  );
}

/** /market/payment/{productId} (docs/product.md §2): the product, or "Product not found" when it is gone. */
export function PaymentPage() {
  const { isAdmin } = useCurrentUser();
  return isAdmin ? <NoAdminPurchases /> : <Payment />;
}

function Payment() {
  const { productId } = useParams<{ productId: string }>();
  const id = parseProductId(productId);
  const product = useQuery({ ...productQuery(id ?? 0), enabled: id !== null });
  // One product_view per page opened (docs/product.md §3), by its own POST; the ref keeps StrictMode's second
  // run of the effect, and refetches of the product, from recording another.
  const viewed = useRef<number | null>(null);
  useEffect(() => {
    if (id === null || viewed.current === id) return;
    viewed.current = id;
    // A view that fails to be recorded does not stop the purchase.
    recordProductView(id).catch(() => undefined);
  }, [id]);

  if (id === null) return <ProductNotFound />;
  if (product.isPending) return <PageLoader message="Loading product..." />;
  if (product.isError) {
    const missing =
      product.error instanceof ApiError && (product.error.status === 404 || product.error.status === 400);
    if (missing) return <ProductNotFound />;
    return (
      <Stack gap="lg" maw={720} mx="auto">
        <BackToMarket />
        <LoadError
          title={`Failed to fetch product with ID ${id}`}
          error={product.error}
          fallback="Please try again in a moment."
          onRetry={() => void product.refetch()}
        />
      </Stack>
    );
  }

  return (
    <Stack gap="lg" maw={720} mx="auto">
      <BackToMarket />
      <PurchaseCard key={product.data.id} product={product.data} />
    </Stack>
  );
}
