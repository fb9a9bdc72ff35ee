import { Badge, Stack, Text } from '@mantine/core';
import type { RefundView } from '@qm/contracts/rest';
import { REFUND_STATUS_LOOK, refundStatusLine } from '../refunds';

/** A refund's status (Requested, Approved, Rejected), with where the money came from or why it was rejected. */
export function RefundStatusBadge({ refund }: { refund: RefundView }) {
  const look = REFUND_STATUS_LOOK[refund.status];
  const line = refundStatusLine(refund);
  return (
    <Stack gap={2} align="flex-start">
      <Badge
        variant="light"
        color={look.color}
        data-status={refund.status}
        styles={{ label: { overflow: 'visible' } }}
      >
        {look.label}
      </Badge>
      {line && (
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }} data-testid="refund-status-line">
          {line}
        </Text>
      )}
    </Stack>
  );
}
