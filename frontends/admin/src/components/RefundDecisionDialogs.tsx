import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ORDER_MESSAGES, RefundDecisionBody } from '@qm/contracts/rest';
import { errorMessage, toast } from '@qm/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { ADMIN_ORDERS_KEY } from '../orders';
import { ADMIN_REFUNDS_KEY, approveRefundText, decideRefund } from '../refunds';
import type { RefundOrder } from './RefundList';

/**
 * The decision on one refund request (PATCH /api/admin/refunds/{id}): on success a toast and the dialog
 * closes; a refusal (409: decided meanwhile, or the seller cannot cover it; 400) stays in the dialog.
 * Either way the lists are refreshed.
 */
function useDecision(order: RefundOrder, onClose: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RefundDecisionBody) => decideRefund(order.id, body),
    // A decision is not repeated: a retry after a lost answer would only meet "already decided" (409).
    retry: false,
    onSuccess: (_order, body) => {
      toast({
        color: 'green',
        title: body.decision === 'approved' ? ORDER_MESSAGES.refundApproved : ORDER_MESSAGES.refundRejected,
        message: `Order #${order.id}`,
      });
      onClose();
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ADMIN_REFUNDS_KEY }),
        queryClient.invalidateQueries({ queryKey: ADMIN_ORDERS_KEY }),
      ]),
  });
}

function Refusal({ error }: { error: Error | null }) {
  if (!error) return null;
  return (
    <Alert color="red" title="The decision was refused" data-testid="refund-decision-error">
      {errorMessage(error, 'The refund could not be decided. Please try again.')}
    </Alert>
  );
}

const who = (order: RefundOrder) =>
  `order #${order.id}${order.product ? ` (${order.product.name})` : ''} to ${order.buyer.username}`;

/** "Approve refund": what approving does, then a confirmation. */
export function ApproveRefundDialog({ order, onClose }: { order: RefundOrder | null; onClose: () => void }) {
  return (
    <Modal opened={order !== null} onClose={onClose} title="Approve refund" centered radius="md">
      {/* Keyed: each request starts without the previous one's refusal. */}
      {order && <ApproveRefund key={order.id} order={order} onClose={onClose} />}
    </Modal>
  );
}

function ApproveRefund({ order, onClose }: { order: RefundOrder; onClose: () => void }) {
  const decide = useDecision(order, onClose);
  return (
    <Stack gap="md">
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        Approve the refund of {who(order)}? {approveRefundText(order)}
      </Text>
      <Refusal error={decide.error} />
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button
          color="green"
          loading={decide.isPending}
          onClick={() => decide.mutate({ decision: 'approved' })}
          data-autofocus
        >
          Approve refund
        </Button>
      </Group>
    </Stack>
  );
}

/** "Reject refund": the reason (required, at most 500 characters, as the server checks it). */
export function RejectRefundDialog({ order, onClose }: { order: RefundOrder | null; onClose: () => void }) {
  return (
    <Modal opened={order !== null} onClose={onClose} title="Reject refund" centered radius="md">
      {order && <RejectRefund key={order.id} order={order} onClose={onClose} />}
    </Modal>
  );
}

function RejectRefund({ order, onClose }: { order: RefundOrder; onClose: () => void }) {
  const decide = useDecision(order, onClose);
  const form = useForm<{ decision: 'rejected'; reason: string }>({
    mode: 'controlled',
    initialValues: { decision: 'rejected', reason: '' },
    validate: zod4Resolver(RefundDecisionBody),
  });
  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) => decide.mutate({ ...values, reason: values.reason.trim() }))}
    >
      <Stack gap="md">
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          Reject the refund of {who(order)}? The seller keeps the proceeds.
        </Text>
        <Textarea
          label="Reason for rejection"
          placeholder="Explain why the refund is rejected"
          required
          autosize
          minRows={3}
          {...form.getInputProps('reason')}
          data-autofocus
        />
        <Refusal error={decide.error} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" color="red" loading={decide.isPending}>
            Reject refund
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
