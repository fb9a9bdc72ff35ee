/**
 * docs/product.md §4: order status badges are green when completed, yellow when pending, red when cancelled and
 * neutral for anything else; the admin order page shows any other status as a destructive badge.
 */
const KNOWN: Record<string, string> = { completed: 'green', pending: 'yellow', cancelled: 'red' };

export function orderStatusColor(status: string, otherColor: 'gray' | 'red' = 'gray'): string {
  return KNOWN[status] ?? otherColor;
}

/** "completed" → "Completed". */
export const statusLabel = (status: string) => status.charAt(0).toUpperCase() + status.slice(1);
