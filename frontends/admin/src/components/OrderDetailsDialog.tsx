import { Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import type { AdminOrderView, OrderPartyView } from '@qm/contracts/rest';
import { exactDate, formatINR, OrderStatusBadge } from '@qm/ui';
import type { ReactNode } from 'react';
import { NO_WRAP } from './UserName';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2} miw={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}

function Party({ party }: { party: OrderPartyView }) {
  return (
    <>
      {party.name} <span style={NO_WRAP}>@{party.username}</span> · {party.role}
    </>
  );
}

/** An order of /admin/orders, whole (issue 30: a row opens its detail). */
export function OrderDetailsDialog({
  order,
  onClose,
}: {
  order: AdminOrderView | null;
  onClose: () => void;
}) {
  return (
    <Modal
      opened={order !== null}
      onClose={onClose}
      title={order ? `Order #${order.id}` : 'Order'}
      centered
      radius="md"
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {order && (
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" data-testid="order-details">
          <Field label="Product">
            {order.product
              ? `${order.product.name} (${order.product.type})`
              : 'Product details not available'}
          </Field>
          <Field label="Status">
            <OrderStatusBadge status={order.status} otherColor="red" />
          </Field>
          <Field label="Buyer">
            <Party party={order.buyer} />
          </Field>
          <Field label="Seller">
            <Party party={order.seller} />
          </Field>
          <Field label="Buyer email">{order.buyerDetails.email}</Field>
          <Field label="Buyer phone">{order.buyerDetails.phone ?? 'Not provided'}</Field>
          <Field label="Quantity">{order.quantity.toLocaleString('en-IN')}</Field>
          <Field label="Unit price">{formatINR(order.unitPrice)}</Field>
          <Field label="Total">{formatINR(order.totalPrice)}</Field>
          <Field label="Payment">{order.paymentStatus}</Field>
          <Field label="Placed">{exactDate(order.createdAt)}</Field>
          <Field label="Last updated">{exactDate(order.updatedAt)}</Field>
          {order.cancelReason && <Field label="Why it was cancelled">{order.cancelReason}</Field>}
        </SimpleGrid>
      )}
    </Modal>
  );
}
