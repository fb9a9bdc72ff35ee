export { LOW_STOCK_THRESHOLD, type StockLevel, stockLabel, stockLevel } from '@qm/contracts/rest';
