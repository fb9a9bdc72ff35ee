import type { AdminOrdersPage } from '@qm/contracts/rest';
import { formatINR } from '@qm/ui';

/** One stat card of /admin/orders: its figure and the caption saying what it counts. */
export interface OrderCard {
  label: 'Total Orders' | 'Army Purchases' | 'Manufacturer Sales';
  value: string;
  detail: string;
}

const count = (n: number) => n.toLocaleString('en-IN');

/**
 * The three cards of /admin/orders (docs/product.md §2), each with its own meaning: every order
 * (with its completed and pending counts); the orders of buyers with role Army (with what their
 * completed ones came to); the value of the completed sales of sellers with role Manufacturer.
 */
export function orderCards(d: AdminOrdersPage): [OrderCard, OrderCard, OrderCard] {
  return [
    {
      label: 'Total Orders',
      value: count(d.allCount),
      detail: `${count(d.completedCount)} completed · ${count(d.pendingCount)} pending`,
    },
    {
      label: 'Army Purchases',
      value: count(d.armyCount),
      detail: `Orders by Army buyers · ${formatINR(d.armyCompletedAmount)} completed`,
    },
    {
      label: 'Manufacturer Sales',
      value: formatINR(d.manufacturerCompletedAmount),
      detail: 'Completed sales, all manufacturers',
    },
  ];
}
