import { Box, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { ORDER_MESSAGES, type AdminOrderView, type OrderPartyView } from '@qm/contracts/rest';
import { exactDate, formatINR, OrderStatusBadge, ResponsiveTable, type ResponsiveColumn } from '@qm/ui';
import { type ReactNode, useState } from 'react';
import { OrderDetailsDialog } from './OrderDetailsDialog';
import { RowDetailButton } from './RowDetailButton';
import { NO_WRAP } from './UserName';

/**
 * The orders of /admin/orders (docs/product.md §2): a table from the medium breakpoint up, cards below it. The
 * product reference's mobile breakpoint is 768 px, Mantine's `sm`. Any status other than completed, pending or
 * cancelled shows as a destructive badge on this page (docs/product.md §4).
 */
export function AdminOrderList({ orders }: { orders: AdminOrderView[] }) {
  const [opened, setOpened] = useState<AdminOrderView | null>(null);
  return (
    <>
      <ResponsiveTable
        rows={orders}
        columns={columns(setOpened)}
        rowKey={(order) => order.id}
        label="Orders"
        minWidth={860}
        rowAttributes={(order) => ({ 'data-testid': 'admin-order-row', 'data-order-id': order.id })}
        card={(order) => <OrderCard order={order} onOpen={setOpened} />}
      />
      <OrderDetailsDialog order={opened} onClose={() => setOpened(null)} />
    </>
  );
}

const columns = (onOpen: (order: AdminOrderView) => void): ResponsiveColumn<AdminOrderView>[] => [
  {
    header: 'Order ID',
    cell: (order) => (
      <RowDetailButton onClick={() => onOpen(order)} hidden="order details" testId="order-open">
        #{order.id}
      </RowDetailButton>
    ),
  },
  { header: 'Product', cell: (order) => <ProductName order={order} /> },
  { header: 'Buyer', cell: (order) => <Party party={order.buyer} /> },
  { header: 'Seller', cell: (order) => <Party party={order.seller} /> },
  { header: 'Amount', cell: (order) => formatINR(order.totalPrice), align: 'right', nowrap: true },
  { header: 'Quantity', cell: (order) => order.quantity.toLocaleString('en-IN'), align: 'right' },
  { header: 'Status', cell: (order) => <OrderStatusBadge status={order.status} otherColor="red" /> },
  { header: 'Date', cell: (order) => <OrderDate iso={order.createdAt} /> },
];

function OrderCard({ order, onOpen }: { order: AdminOrderView; onOpen: (order: AdminOrderView) => void }) {
  return (
    <Card withBorder radius="md" padding="md" component="article" data-testid="admin-order-card">
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <RowDetailButton onClick={() => onOpen(order)} hidden="order details" testId="order-open">
            Order #{order.id}
          </RowDetailButton>
          <OrderStatusBadge status={order.status} otherColor="red" />
        </Group>
        <ProductName order={order} />
        <SimpleGrid cols={2} spacing="xs" verticalSpacing="xs">
          <Labelled label="Buyer">
            <Party party={order.buyer} />
          </Labelled>
          <Labelled label="Seller">
            <Party party={order.seller} />
          </Labelled>
          <Labelled label="Amount">
            <Text size="sm" fw={600}>
              {formatINR(order.totalPrice)}
            </Text>
          </Labelled>
          <Labelled label="Quantity">
            <Text size="sm">{order.quantity.toLocaleString('en-IN')}</Text>
          </Labelled>
        </SimpleGrid>
        <OrderDate iso={order.createdAt} />
      </Stack>
    </Card>
  );
}

/** The product of an order (its name and type), or that its details are not available. */
export function ProductName({ order }: { order: AdminOrderView }) {
  if (!order.product) {
    return (
      <Text size="sm" c="dimmed" fs="italic">
        {ORDER_MESSAGES.productDetailsUnavailable}
      </Text>
    );
  }
  return (
    <Box>
      <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
        {order.product.name}
      </Text>
      <Text size="xs" c="dimmed">
        {order.product.type}
      </Text>
    </Box>
  );
}

function Party({ party }: { party: OrderPartyView }) {
  return (
    <Box>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {party.name}
      </Text>
      {/* The username ends with an ellipsis when the card's half cannot hold it; the role stays. */}
      <Group gap={4} wrap="nowrap">
        <Text span size="xs" c="dimmed" miw={0} style={NO_WRAP} title={party.username}>
          @{party.username}
        </Text>
        <Text span size="xs" c="dimmed" style={{ flexShrink: 0 }}>
          · {party.role}
        </Text>
      </Group>
    </Box>
  );
}

function Labelled({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      {children}
    </Stack>
  );
}

/** docs/product.md §2: short month, day, year, hour and minute ("23 Nov 2026, 2:05 pm"). */
function OrderDate({ iso }: { iso: string }) {
  return (
    <Text component="time" dateTime={iso} size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
      {exactDate(iso)}
    </Text>
  );
}
