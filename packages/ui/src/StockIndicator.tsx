import { Badge, type BadgeProps } from '@mantine/core';
import { stockLabel, stockLevel, type StockLevel } from './stock-label';

const COLORS: Record<StockLevel, string> = { out: 'red', low: 'orange', in: 'green' };

export interface StockIndicatorProps extends Omit<BadgeProps, 'children' | 'color'> {
  stock: number;
}

export function StockIndicator({ stock, ...badgeProps }: StockIndicatorProps) {
  const level = stockLevel(stock);
  return (
    <Badge color={COLORS[level]} variant="light" data-stock-level={level} {...badgeProps}>
      {stockLabel(stock)}
    </Badge>
  );
}
