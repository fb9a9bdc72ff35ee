import { formatINR } from '@qm/ui';

/** "₹100000.00" (or "₹ 1250.5") inside a sentence: a rupee amount written without grouping. */
const RUPEES = /₹\s?(\d+(?:\.\d{1,2})?)(?![\d,])/g;

/**
 * An activity's details with every rupee amount in the shared Indian format ("Added ₹100000.00" reads
 * "Added ₹1,00,000.00"): the services wrote some with the plain two-decimal money text.
 */
export const formatRupeesIn = (text: string): string =>
  text.replace(RUPEES, (_match, amount: string) => formatINR(amount));
