import { Badge, Button, Card, Divider, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import {
  ORDER_MESSAGES,
  type BuyerDetailsView,
  type OrderView,
  type PurchasedOrderView,
  type SoldOrderView,
} from '@qm/contracts/rest';
import { formatINR, longDateTime, OrderStatusBadge } from '@qm/ui';
import { IconUser } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { TYPE_COLORS } from '../components/ProductCard';
import { mayRequestRefund, proceedsLine, refundLine } from './refund';

/**
 * One order of /orders (docs/product.md §2); a sale also shows who bought it. A purchase offers its
 * buyer a refund request while its window is open (`onRequestRefund`), and every order says where
 * its refund stands (docs/adr/028).
 */
export function OrderCard({
  order,
  onRequestRefund,
  readAt = 0,
}: {
  order: PurchasedOrderView | SoldOrderView;
  onRequestRefund?: () => void;
  /** When the order was read (ms): its refund window is judged as of then. */
  readAt?: number;
}) {
  const refund = refundLine(order);
  const sale = 'buyerDetails' in order;
  const proceeds = sale ? proceedsLine(order, readAt) : null;
  const titleId = `order-${order.id}-title`;
  return (
    <Card
      withBorder
      radius="md"
      padding="lg"
      component="article"
      aria-labelledby={titleId}
      data-testid="order-card"
      data-order-id={order.id}
    >
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Stack gap={0}>
            <Title order={2} size="h4" id={titleId}>
              Order #{order.id}
            </Title>
            <Text size="sm" c="dimmed" component="time" dateTime={order.createdAt}>
              {longDateTime(order.createdAt)}
            </Text>
          </Stack>
          <OrderStatusBadge status={order.status} />
        </Group>
        <ProductBlock order={order} />
        {order.status === 'cancelled' && order.cancelReason && (
          <Text size="sm" c="red">
            {order.cancelReason}
          </Text>
        )}
        <Divider />
        <SimpleGrid cols={3} spacing="xs">
          <Figure label="Unit price">{formatINR(order.unitPrice)}</Figure>
          <Figure label="Quantity">{order.quantity.toLocaleString('en-IN')}</Figure>
          <Figure label="Total price">
            <Text fw={700}>{formatINR(order.totalPrice)}</Text>
          </Figure>
        </SimpleGrid>
        {refund && (
          <Group gap="xs" wrap="nowrap" align="flex-start" data-testid="refund-status">
            <Badge color={refund.color} variant="light" style={{ flexShrink: 0 }}>
              {refund.label}
            </Badge>
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {refund.detail}
            </Text>
          </Group>
        )}
        {proceeds && (
          <Text size="sm" c="dimmed" data-testid="sale-proceeds">
            {proceeds}
          </Text>
        )}
        {sale && <BuyerDetails details={order.buyerDetails} />}
        {onRequestRefund && mayRequestRefund(order, readAt) && (
          <Group justify="flex-end">
            <Button variant="default" size="xs" onClick={onRequestRefund}>
              Request refund
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}

function ProductBlock({ order }: { order: OrderView }) {
  if (!order.product) {
    return (
      <Text size="sm" c="dimmed" fs="italic">
        {ORDER_MESSAGES.productDetailsUnavailable}
      </Text>
    );
  }
  const { name, type, description } = order.product;
  return (
    <Stack gap={4}>
      <Group gap="xs" wrap="nowrap" justify="space-between" align="flex-start">
        <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
          {name}
        </Text>
        <Badge color={TYPE_COLORS[type]} variant="light" style={{ flexShrink: 0 }}>
          {type}
        </Badge>
      </Group>
      {description && (
        <Text size="sm" c="dimmed" lineClamp={3} style={{ overflowWrap: 'anywhere' }}>
          {description}
        </Text>
      )}
    </Stack>
  );
}

function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      {typeof children === 'string' ? <Text>{children}</Text> : children}
    </Stack>
  );
}

function BuyerDetails({ details }: { details: BuyerDetailsView }) {
  return (
    <Card
      withBorder
      radius="sm"
      padding="sm"
      bg="var(--mantine-color-default-hover)"
      data-testid="buyer-details"
    >
      <Group gap={6} mb={6}>
        <IconUser size={16} aria-hidden />
        <Text fw={600} size="sm">
          Buyer Details
        </Text>
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing={6} verticalSpacing={4}>
        <Detail label="Name" value={details.name} />
        <Detail label="Role" value={details.role} />
        <Detail label="Phone" value={details.phone || ORDER_MESSAGES.phoneNotProvided} />
        {/* A whole row: an address broken mid-word in a half-width column is hard to read. */}
        <Detail label="Email" value={details.email} span />
      </SimpleGrid>
    </Card>
  );
}

function Detail({ label, value, span }: { label: string; value: string; span?: boolean }) {
  return (
    <Text size="sm" style={{ overflowWrap: 'anywhere', gridColumn: span ? '1 / -1' : undefined }}>
      <Text span c="dimmed" size="sm">
        {label}:{' '}
      </Text>
      {value}
    </Text>
  );
}
