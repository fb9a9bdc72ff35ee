import { Modal, SimpleGrid } from '@mantine/core';
import type { AdminOrderView, OrderPartyView } from '@qm/contracts/rest';
import { exactDate, formatINR, OrderStatusBadge } from '@qm/ui';
import { DetailField } from './DetailField';
import { NO_WRAP } from './UserName';

function Party({ party }: { party: OrderPartyView }) {
  return (
    <>
      {party.name} <span style={NO_WRAP}>@{party.username}</span> · {party.role}
    </>
  );
}

/** An order of /admin/orders, whole (its row opens it). */
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
          <DetailField label="Product">
            {order.product
              ? `${order.product.name} (${order.product.type})`
              : 'Product details not available'}
          </DetailField>
          <DetailField label="Status">
            <OrderStatusBadge status={order.status} otherColor="red" />
          </DetailField>
          <DetailField label="Buyer">
            <Party party={order.buyer} />
          </DetailField>
          <DetailField label="Seller">
            <Party party={order.seller} />
          </DetailField>
          <DetailField label="Buyer email">{order.buyerDetails.email}</DetailField>
          <DetailField label="Buyer phone">{order.buyerDetails.phone ?? 'Not provided'}</DetailField>
          <DetailField label="Quantity">{order.quantity.toLocaleString('en-IN')}</DetailField>
          <DetailField label="Unit price">{formatINR(order.unitPrice)}</DetailField>
          <DetailField label="Total">{formatINR(order.totalPrice)}</DetailField>
          <DetailField label="Payment">{order.paymentStatus}</DetailField>
          <DetailField label="Placed">{exactDate(order.createdAt)}</DetailField>
          <DetailField label="Last updated">{exactDate(order.updatedAt)}</DetailField>
          {order.cancelReason && <DetailField label="Why it was cancelled">{order.cancelReason}</DetailField>}
        </SimpleGrid>
      )}
    </Modal>
  );
}
