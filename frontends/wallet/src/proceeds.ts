/**
 * How a held sale is named to its seller: "Order #12" for the orders service's references
 * (`order-<id>`), the reference itself for anything else.
 */
export function heldSaleLabel(reference: string): string {
  const order = /^order-(\d+)$/.exec(reference);
  return order ? `Order #${order[1]}` : reference;
}
