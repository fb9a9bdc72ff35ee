import { Badge, type BadgeProps } from '@mantine/core';
import { orderStatusColor, statusLabel } from './order-status';

export interface OrderStatusBadgeProps extends Omit<BadgeProps, 'children' | 'color'> {
  status: string;
  /** Colour of a status other than completed, pending or cancelled (the admin page uses red). */
  otherColor?: 'gray' | 'red';
}

export function OrderStatusBadge({ status, otherColor, ...badgeProps }: OrderStatusBadgeProps) {
  return (
    <Badge
      variant="light"
      color={orderStatusColor(status, otherColor)}
      data-status={status}
      styles={{ label: { overflow: 'visible' } }}
      {...badgeProps}
    >
      {statusLabel(status)}
    </Badge>
  );
}
