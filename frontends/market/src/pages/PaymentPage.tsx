import { Alert, Badge, Button, Card, Divider, Group, Stack, Text, Title } from '@mantine/core';
import { ApiError, EmptyState, errorMessage, formatINR, PageLoader, StockIndicator } from '@qm/ui';
import { IconAlertTriangle, IconArrowLeft, IconClockHour4, IconPackageOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';
import { productQuery } from '../api';
import { TYPE_COLORS } from '../components/ProductCard';

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
      title="Product not found"
      description="The product you're looking for may have been removed or is temporarily unavailable."
      action={
        <Button component={Link} to="/market" mt="sm">
          Back to Market
        </Button>
      }
    />
  );
}

/**
 * /market/payment/{productId}. Paying from the wallet arrives with the orders work; until then the page
 * shows the product and says purchasing opens soon.
 */
export function PaymentPage() {
  const { productId } = useParams<{ productId: string }>();
  const id = parseProductId(productId);
  const product = useQuery({ ...productQuery(id ?? 0), enabled: id !== null });

  if (id === null) return <ProductNotFound />;
  if (product.isPending) return <PageLoader message="Loading product..." />;
  if (product.isError) {
    const missing =
      product.error instanceof ApiError && (product.error.status === 404 || product.error.status === 400);
    if (missing) return <ProductNotFound />;
    return (
      <Stack gap="lg" maw={720}>
        <BackToMarket />
        <Alert
          color="red"
          title={`Failed to fetch product with ID ${id}`}
          icon={<IconAlertTriangle size={18} />}
        >
          <Stack gap="sm" align="flex-start">
            <Text size="sm">{errorMessage(product.error, 'Please try again in a moment.')}</Text>
            <Button size="xs" variant="light" color="red" onClick={() => void product.refetch()}>
              Retry
            </Button>
          </Stack>
        </Alert>
      </Stack>
    );
  }

  const item = product.data;
  return (
    <Stack gap="lg" maw={720}>
      <BackToMarket />
      <Card withBorder radius="md" padding="lg" data-testid="purchase-card">
        <Stack gap="md">
          <Title order={1} size="h2">
            Complete Your Purchase
          </Title>
          <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
            <Title order={2} size="h3" style={{ overflowWrap: 'anywhere' }}>
              {item.name}
            </Title>
            <Badge color={TYPE_COLORS[item.type]} variant="light" style={{ flexShrink: 0 }}>
              {item.type}
            </Badge>
          </Group>
          {item.description && (
            <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-line' }}>
              {item.description}
            </Text>
          )}
          <Divider />
          <Group justify="space-between">
            <Text c="dimmed">Price per unit</Text>
            <Text fw={700} size="lg">
              {formatINR(item.price)}
            </Text>
          </Group>
          <Group justify="space-between">
            <Text c="dimmed">Availability</Text>
            <StockIndicator stock={item.stock} />
          </Group>
          <Group justify="space-between">
            <Text c="dimmed">Available stock</Text>
            <Text fw={500}>{item.stock.toLocaleString('en-IN')}</Text>
          </Group>
          <Divider />
          {item.stock < 1 ? (
            <Alert color="red" variant="light" title="Out of Stock" icon={<IconPackageOff size={18} />}>
              This product is currently out of stock. Check back later.
            </Alert>
          ) : (
            <Alert
              color="blue"
              variant="light"
              title="Purchasing opens soon"
              icon={<IconClockHour4 size={18} />}
              data-testid="purchasing-soon"
            >
              Paying from your wallet is being set up. You will be able to buy this product here shortly; the
              product and its price are shown so you can plan your order.
            </Alert>
          )}
        </Stack>
      </Card>
    </Stack>
  );
}
