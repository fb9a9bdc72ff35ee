import { Badge, type BadgeProps, Text, type TextProps } from '@mantine/core';
import { transactionCredited, transactionStatusLabel, transactionTypeLabel } from '@qm/contracts/rest';

interface Line {
  status: string;
  failureReason?: string;
}

interface TypedLine {
  type: string;
  status: string;
  counterparty?: string;
  transferReference?: string;
}

/**
 * A wallet line's type (the wallet history and the admin transactions): teal only for money that came in;
 * a top-up still pending, failed or expired reads "Top-up" in grey, never as a credit.
 */
export function TransactionTypeBadge({
  tx,
  ...badgeProps
}: { tx: TypedLine } & Omit<BadgeProps, 'children'>) {
  const label = transactionTypeLabel(tx);
  return (
    <Badge
      variant="light"
      color={transactionCredited(tx) ? 'teal' : 'gray'}
      data-type={label}
      styles={{ label: { overflow: 'visible' } }}
      {...badgeProps}
    >
      {label}
    </Badge>
  );
}

const STATUS_COLORS: Record<string, string> = { completed: 'green', pending: 'yellow', failed: 'red' };

/** A wallet line's status: Completed, Pending, Failed, or Expired for a checkout never paid in time. */
export function TransactionStatusBadge({ tx, ...badgeProps }: { tx: Line } & Omit<BadgeProps, 'children'>) {
  return (
    <Badge
      variant="light"
      color={STATUS_COLORS[tx.status] ?? 'gray'}
      data-status={tx.status}
      styles={{ label: { overflow: 'visible' } }}
      {...badgeProps}
    >
      {transactionStatusLabel(tx)}
    </Badge>
  );
}

/** Why a failed line failed (the provider's decline, an expired checkout), or nothing. */
export function TransactionFailureReason({ tx, ...textProps }: { tx: Line } & Omit<TextProps, 'children'>) {
  if (tx.status !== 'failed' || !tx.failureReason) return null;
  return (
    <Text size="xs" c="red" fw={400} data-testid="failure-reason" {...textProps}>
      {tx.failureReason}
    </Text>
  );
}
