import { formatMoney, parseRupees } from '@qm/contracts/rest';

/**
 * The rules of the payment page (docs/product.md §4 and §5 "Purchase"), free of React so they can be tested alone.
 * Money is handled as integer paise parsed from the API's decimal strings, never as floating point:
 * ₹0.10 × 3 must be ₹0.30, and the server refuses a total that differs from its own by a paisa.
 */

/** An API amount ("1250.5") in paise (125050); undefined for anything else (@qm/contracts parseRupees). */
export function toPaise(amount: string): number | undefined {
  const parsed = parseRupees(amount);
  return parsed.ok ? parsed.paise : undefined;
}

/** The total the server will recompute: price × quantity, as a string with two decimals. */
export function orderTotal(price: string, quantity: number): string | undefined {
  const unit = toPaise(price);
  if (unit === undefined || !Number.isSafeInteger(quantity) || quantity < 1) return undefined;
  const total = unit * quantity;
  return Number.isSafeInteger(total) ? formatMoney(total) : undefined;
}

/** The quantity the stepper may hold: a whole number from 1 to the stock (1 when nothing is in stock). */
export function clampQuantity(value: number | string, stock: number): number {
  const n = typeof value === 'number' ? value : Number(value);
  const max = Math.max(1, stock);
  if (!Number.isFinite(n)) return 1;
  return Math.min(max, Math.max(1, Math.trunc(n)));
}

/** Why a typed quantity was changed to fit 1..stock, in words for the user; undefined when it fit. */
export function clampNote(typed: number, stock: number): string | undefined {
  if (!Number.isFinite(typed)) return undefined;
  if (typed > Math.max(1, stock)) return `Only ${stock.toLocaleString('en-IN')} in stock`;
  if (typed < 1) return 'The quantity must be at least 1';
  if (!Number.isInteger(typed)) return 'The quantity must be a whole number';
  return undefined;
}

/** Whether a total exceeds the balance (both API amounts); unknown amounts count as not affordable. */
export function exceedsBalance(total: string | undefined, balance: string | undefined): boolean {
  if (total === undefined || balance === undefined) return true;
  const t = toPaise(total);
  const b = toPaise(balance);
  return t === undefined || b === undefined || t > b;
}

export interface PurchaseState {
  productLoaded: boolean;
  walletLoaded: boolean;
  stock: number;
  quantity: number;
  total: string | undefined;
  balance: string | undefined;
  /** A request is pending or has succeeded (no second order from the same page). */
  busy: boolean;
}

/**
 * docs/product.md §5: Pay Now is enabled only when the product and the wallet are loaded, the quantity is an
 * integer from 1 to the available stock, no request is pending and price × quantity does not exceed
 * the wallet balance.
 */
export function canPay(state: PurchaseState): boolean {
  const quantityValid =
    Number.isInteger(state.quantity) && state.quantity >= 1 && state.quantity <= state.stock;
  return (
    state.productLoaded &&
    state.walletLoaded &&
    quantityValid &&
    !state.busy &&
    !exceedsBalance(state.total, state.balance)
  );
}

/** docs/product.md §4 and §9: after a successful purchase the page goes to /orders after 2 s. */
export const REDIRECT_AFTER_SUCCESS_MS = 2_000;

export type PurchasePhase = 'idle' | 'processing' | 'success' | 'failed';

export interface PurchaseRequestState {
  isPending: boolean;
  isSuccess: boolean;
  isError: boolean;
  /** The order of a success: the saga may have cancelled it (balance or stock ran out meanwhile). */
  order?: { status: string; cancelReason: string | null };
  /** The message of a failed request. */
  errorText?: string;
}

/**
 * docs/product.md §4: idle → processing → success. An answered order the saga cancelled is a failure with its
 * reason, like a refused request; a pending order (still settling) counts as placed.
 */
export function purchaseOutcome(
  request: PurchaseRequestState,
  fallback: string,
): { phase: PurchasePhase; failure?: string } {
  if (request.isPending) return { phase: 'processing' };
  if (request.isError) return { phase: 'failed', failure: request.errorText ?? fallback };
  if (!request.isSuccess) return { phase: 'idle' };
  if (request.order?.status === 'cancelled') {
    return { phase: 'failed', failure: request.order.cancelReason ?? fallback };
  }
  return { phase: 'success' };
}
