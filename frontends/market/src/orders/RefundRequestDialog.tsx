import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { exactDate, formatINR, toast, errorMessage } from '@qm/ui';
import { ORDER_LIMITS, ORDER_MESSAGES, RefundRequestBody, type PurchasedOrderView } from '@qm/contracts/rest';
import { useMutation } from '@tanstack/react-query';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { requestRefund, useRefreshOrders } from './api';

/** The buyer's refund request (docs/adr/028): a reason, then an administrator decides. */
export function RefundRequestDialog({
  order,
  onClose,
}: {
  order: PurchasedOrderView | null;
  onClose: () => void;
}) {
  return (
    <Modal opened={order !== null} onClose={onClose} title="Request refund" centered>
      {order && <RefundRequestForm key={order.id} order={order} onClose={onClose} />}
    </Modal>
  );
}

function RefundRequestForm({ order, onClose }: { order: PurchasedOrderView; onClose: () => void }) {
  const refresh = useRefreshOrders();
  const form = useForm<RefundRequestBody>({
    mode: 'controlled',
    initialValues: { reason: '' },
    validate: zod4Resolver(RefundRequestBody),
  });
  const send = useMutation({
    mutationFn: (values: RefundRequestBody) => requestRefund(order.id, values),
    onSuccess: () => {
      toast({
        color: 'green',
        title: ORDER_MESSAGES.refundRequested,
        message: `An administrator will review your request for order #${order.id}.`,
      });
      void refresh();
      onClose();
    },
    onError: (error) => {
      void refresh();
      toast({
        color: 'red',
        title: 'Refund not requested',
        message: errorMessage(error, 'Please try again.'),
      });
    },
  });

  return (
    <form onSubmit={form.onSubmit((values) => send.mutate(values))} noValidate>
      <Stack gap="md">
        <Text size="sm">
          Order #{order.id}: {formatINR(order.totalPrice)} back to your wallet if approved. You can ask until{' '}
          {exactDate(order.refundableUntil!)}.
        </Text>
        <Textarea
          label="Reason"
          description="What went wrong with this order?"
          required
          autosize
          minRows={3}
          maxLength={ORDER_LIMITS.refundReasonMaxChars}
          data-autofocus
          {...form.getInputProps('reason')}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={send.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={send.isPending}>
            Request refund
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
