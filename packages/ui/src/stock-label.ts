/** Stock of 5 or fewer (but above 0) reads "Selling Quickly!". */
export const LOW_STOCK_THRESHOLD = 5;

export type StockLevel = 'out' | 'low' | 'in';

export function stockLevel(stock: number): StockLevel {
  if (stock <= 0) return 'out';
  if (stock <= LOW_STOCK_THRESHOLD) return 'low';
  return 'in';
}

/** 0 → "Out of Stock"; 1–5 → "Selling Quickly! Only {n} left"; above 5 → "In Stock". */
export function stockLabel(stock: number): string {
  switch (stockLevel(stock)) {
    case 'out':
      return 'Out of Stock';
    case 'low':
      return `Selling Quickly! Only ${stock} left`;
    case 'in':
      return 'In Stock';
  }
}
