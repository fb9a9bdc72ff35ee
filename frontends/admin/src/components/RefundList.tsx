import { Button, Group, Stack, Text } from '@mantine/core';
import type { AdminOrderView, OrderPartyView, RefundView } from '@qm/contracts/rest';
import { formatINR, RelativeTime, ResponsiveTable, type ResponsiveColumn } from '@qm/ui';
import { IconCheck, IconX } from '@tabler/icons-react';
import { ProductName } from './AdminOrderList';
import { RefundStatusBadge } from './RefundStatusBadge';
import { NO_WRAP } from './UserName';

/** An order of /admin/refunds: every one the API lists has its refund request. */
export type RefundOrder = AdminOrderView & { refund: RefundView };

export interface RefundActions {
  onApprove: (order: RefundOrder) => void;
  onReject: (order: RefundOrder) => void;
}

/**
 * The refund requests of /admin/refunds (docs/adr/028): a table from the `sm` breakpoint up, cards below it;
 * an open request has its Approve and Reject buttons.
 */
export function RefundList({ orders, ...actions }: { orders: RefundOrder[] } & RefundActions) {
  return (
    <ResponsiveTable
      rows={orders}
      columns={refundColumns(actions)}
      rowKey={(order) => order.id}
      label="Refund requests"
      minWidth={1040}
      layout="fixed"
      rowAttributes={(order) => ({ 'data-testid': 'refund-row', 'data-order-id': order.id })}
      cardAttributes={(order) => ({ 'data-testid': 'refund-card', 'data-order-id': order.id })}
      cardTitle={(order) => `Order #${order.id}`}
      cardFooter={(order) => (
        <Group gap="xs">
          <DecisionButtons order={order} {...actions} />
        </Group>
      )}
    />
  );
}

const refundColumns = (actions: RefundActions): ResponsiveColumn<RefundOrder>[] => [
  { header: 'Order', cell: (order) => `#${order.id}`, width: 70, nowrap: true, hideOnCard: true },
  { header: 'Product', cell: (order) => <ProductName order={order} />, wide: true },
  { header: 'Buyer', cell: (order) => <Username party={order.buyer} />, width: 160 },
  { header: 'Seller', cell: (order) => <Username party={order.seller} />, width: 160 },
  {
    header: 'Amount',
    cell: (order) => formatINR(order.totalPrice),
    align: 'right',
    width: 120,
    nowrap: true,
  },
  { header: 'Reason', cell: (order) => <Reason refund={order.refund} />, wide: true },
  {
    header: 'Status',
    cell: (order) => <RefundStatusBadge refund={order.refund} />,
    width: 150,
    wide: true,
  },
  {
    header: 'Actions',
    cell: (order) =>
      order.refund.status === 'requested' ? (
        <Stack gap={6} align="stretch">
          <DecisionButtons order={order} {...actions} />
        </Stack>
      ) : (
        <Text size="sm" c="dimmed">
          —
        </Text>
      ),
    width: 120,
    hideOnCard: true,
  },
];

/** A username: one line, with an ellipsis (the whole name its title) where the column cannot hold it. */
function Username({ party }: { party: OrderPartyView }) {
  return (
    <Text size="sm" style={NO_WRAP} title={party.username}>
      {party.username}
    </Text>
  );
}

/** The buyer's reason, and how long ago it was asked (the exact time on hover). */
function Reason({ refund }: { refund: RefundView }) {
  return (
    <Stack gap={2}>
      <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {refund.reason}
      </Text>
      <Group gap={4}>
        <Text span size="xs" c="dimmed">
          Requested
        </Text>
        <RelativeTime iso={refund.requestedAt} size="xs" c="dimmed" />
      </Group>
    </Stack>
  );
}

function DecisionButtons({ order, onApprove, onReject }: { order: RefundOrder } & RefundActions) {
  if (order.refund.status !== 'requested') return null;
  return (
    <>
      <Button
        size="xs"
        color="green"
        leftSection={<IconCheck size={14} />}
        onClick={() => onApprove(order)}
        aria-label={`Approve refund of order #${order.id}`}
      >
        Approve
      </Button>
      <Button
        size="xs"
        color="red"
        variant="light"
        leftSection={<IconX size={14} />}
        onClick={() => onReject(order)}
        aria-label={`Reject refund of order #${order.id}`}
      >
        Reject
      </Button>
    </>
  );
}
