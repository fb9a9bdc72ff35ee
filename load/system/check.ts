import type { Db } from 'mongodb';
import { formatMoney } from '../../packages/contracts/src/rest';
import { type Break as LedgerBreak, checkLedger, GRACE_MS, type LedgerReport } from '../ledger/check';

/**
 * `npm run system:check`: the marketplace's invariants across the wallet, catalog and orders
 * databases (docs/adr/010), read straight from them and never written:
 *
 * - the wallet ledger's own checks (load/ledger/check.ts: entries sum to zero, balances, holds…);
 * - no product's stock below zero, and for every product, stock + the units its reservations took
 *   (sold, or still in a purchase) = the stock its manufacturer supplied (catalog's `suppliedStock`);
 * - every completed order paid by exactly one posted transfer keyed by its reference (`hold:order-<id>`,
 *   buyer → the sale's escrow `escrow:order-<id>` of its seller, its total: docs/adr/028) with its
 *   reservation committed; every cancelled one paid by none, its
 *   reservation not committed; no purchase payment or committed reservation without a completed order;
 * - no order still in its saga a minute after its deadline (the hold's timeout).
 *
 * Reservations that took stock and were not put back count while the purchase runs, so the check
 * holds at any instant a saga can stop in. Memory grows with products and orders, not with entries.
 */

export type SystemBreakKind =
  | LedgerBreak['kind']
  | 'negative-stock'
  | 'stock-supplied'
  | 'order-payment'
  | 'order-stock'
  | 'order-overdue'
  | 'order-refund';

export interface SystemBreak {
  kind: SystemBreakKind;
  detail: string;
}

export interface SystemDbs {
  wallet: Db;
  catalog: Db;
  orders: Db;
}

export interface SystemReport {
  ledger: Omit<LedgerReport, 'breaks'>;
  products: number;
  /** Products created before catalog kept their supplied stock: their sums cannot be checked. */
  productsUnchecked: number;
  unitsSold: number;
  orders: { completed: number; cancelled: number; pending: number; refunded: number };
  breaks: SystemBreak[];
  ms: number;
}

/** How an order's money and stock appear in the wallet and catalog (one place if they rename). */
export const paymentKey = (reference: string) => `hold:${reference}`;
/** Where a sale's proceeds wait for the refund window (docs/adr/028). */
export const escrowOf = (reference: string) => `escrow:${reference}`;
export const reserveKey = (reference: string) => `reserve:${reference}`;
export const releaseKey = (reference: string) => `release:${reference}`;
/** A refunded sale's units put back in stock (docs/adr/028). */
export const returnKey = (reference: string) => `return:${reference}`;

interface ProductDoc {
  id: number;
  stock: number;
  suppliedStock?: number;
  movements?: string[];
}
interface ReservationDoc {
  _id: string;
  productId: number;
  quantity: number;
  state: string;
}
interface OrderDoc {
  id: number;
  reference: string;
  productId: number;
  buyerId: number;
  sellerId: number;
  quantity: number;
  totalPaise: number;
  status: string;
  step: string;
  deadlineAt: Date;
  /** Absent on orders placed before escrows, whose payment went to the seller directly. */
  refundableUntil?: Date;
  refund?: { status: string };
}
interface TransferDoc {
  _id: string;
  key: string;
  kind: string;
  debitAccount: string;
  creditAccount: string;
  amount: number;
  state: string;
}

const rupees = (paise: number) => `₹${formatMoney(paise)}`;

/** Whether a reservation has its units out of the product's stock now. */
function holdsStock(r: ReservationDoc, product: ProductDoc | undefined): boolean {
  const moved = (key: string) => product?.movements?.includes(key) ?? false;
  switch (r.state) {
    case 'reserved':
    case 'committed':
      return true;
    case 'pending': // stopped between recording the reservation and taking the stock
      return moved(reserveKey(r._id));
    case 'releasing': // stopped between the release's record and putting the stock back
      return !moved(releaseKey(r._id));
    case 'returning': // the same for a refund's return of sold units
      return !moved(returnKey(r._id));
    default: // rejected, released, returned
      return false;
  }
}

export async function checkSystem(
  dbs: SystemDbs,
  { now = new Date(), graceMs = GRACE_MS }: { now?: Date; graceMs?: number } = {},
): Promise<SystemReport> {
  const started = Date.now();
  const { breaks: ledgerBreaks, ...ledger } = await checkLedger(dbs.wallet, { now, graceMs });
  const breaks: SystemBreak[] = [...ledgerBreaks];
  const report = (kind: SystemBreakKind, detail: string) => breaks.push({ kind, detail });

  // Stock: every product against its reservations.
  const products = new Map<number, ProductDoc>();
  const projection = { _id: 0, id: 1, stock: 1, suppliedStock: 1, movements: 1 };
  for await (const p of dbs.catalog.collection<ProductDoc>('products').find({}, { projection }))
    products.set(p.id, p);
  const reservations = new Map<string, ReservationDoc>();
  const out = new Map<number, { reserved: number; sold: number }>();
  for await (const r of dbs.catalog.collection<ReservationDoc>('stock_reservations').find({})) {
    reservations.set(r._id, r);
    if (!holdsStock(r, products.get(r.productId))) continue;
    const o = out.get(r.productId) ?? { reserved: 0, sold: 0 };
    // Sold until a refund's return has put the units back.
    if (r.state === 'committed' || r.state === 'returning') o.sold += r.quantity;
    else o.reserved += r.quantity;
    out.set(r.productId, o);
  }
  let productsUnchecked = 0;
  let unitsSold = 0;
  for (const p of products.values()) {
    const { reserved, sold } = out.get(p.id) ?? { reserved: 0, sold: 0 };
    unitsSold += sold;
    if (p.stock < 0) report('negative-stock', `product ${p.id}: stock ${p.stock}`);
    if (p.suppliedStock === undefined) {
      productsUnchecked++;
      continue;
    }
    if (p.stock + sold + reserved !== p.suppliedStock)
      report(
        'stock-supplied',
        `product ${p.id}: stock ${p.stock} + ${sold} sold` +
          (reserved ? ` + ${reserved} in purchases` : '') +
          ` ≠ ${p.suppliedStock} supplied by its manufacturer`,
      );
  }

  // Orders: each against its payment and its reservation.
  const payments = new Map<string, TransferDoc>();
  for await (const t of dbs.wallet.collection<TransferDoc>('transfers').find({ kind: 'purchase' }))
    payments.set(t.key, t);
  const sellers = new Map<string, number | undefined>();
  const escrows = dbs.wallet.collection<{ _id: string; sellerId?: number }>('accounts');
  for await (const e of escrows.find({ kind: 'escrow' }, { projection: { sellerId: 1 } }))
    sellers.set(e._id, e.sellerId);
  // A sale's refunds, by order reference (keys `refund:<reference>:<attempt>`, docs/adr/028).
  const refundsOf = new Map<string, TransferDoc[]>();
  for await (const t of dbs.wallet.collection<TransferDoc>('transfers').find({ kind: 'refund' })) {
    const reference = t.key.replace(/^refund:/, '').replace(/:\d+$/, '');
    refundsOf.set(reference, [...(refundsOf.get(reference) ?? []), t]);
  }
  const counts = { completed: 0, cancelled: 0, pending: 0, refunded: 0 };
  const ordered = new Set<string>();
  for await (const o of dbs.orders.collection<OrderDoc>('orders').find({})) {
    ordered.add(o.reference);
    const name = `order ${o.id} (${o.status})`;
    const t = payments.get(paymentKey(o.reference));
    const r = reservations.get(o.reference);
    const paidBack = (refundsOf.get(o.reference) ?? []).filter((x) => x.state === 'posted');
    // Paid back exactly when refunded; an approval under way may have paid already.
    if (
      o.status === 'refunded'
        ? paidBack.length !== 1
        : paidBack.length > 0 && o.refund?.status !== 'approving'
    )
      report('order-refund', `${name}: ${paidBack.length} posted refunds`);
    for (const x of paidBack)
      if (x.amount !== o.totalPaise || x.creditAccount !== `user:${o.buyerId}`)
        report('order-refund', `${name}: refund ${x.key} of ${rupees(x.amount)} to ${x.creditAccount}`);
    if (o.status === 'completed') {
      counts.completed++;
      if (o.totalPaise > 0 && t?.state !== 'posted')
        report('order-payment', `${name}: ${t ? `its payment is ${t.state}` : 'no payment'}`);
      else if (o.totalPaise === 0 && t)
        report('order-payment', `${name}: free, yet a ${t.state} payment of ${rupees(t.amount)}`);
      else if (
        t &&
        (t.amount !== o.totalPaise ||
          t.debitAccount !== `user:${o.buyerId}` ||
          (o.refundableUntil
            ? t.creditAccount !== escrowOf(o.reference) || sellers.get(t.creditAccount) !== o.sellerId
            : t.creditAccount !== `user:${o.sellerId}`))
      )
        report(
          'order-payment',
          `${name}: ${rupees(o.totalPaise)} from user:${o.buyerId} to ` +
            `${o.refundableUntil ? `${escrowOf(o.reference)} of ` : ''}user:${o.sellerId}, paid ` +
            `${rupees(t.amount)} from ${t.debitAccount} to ${t.creditAccount}`,
        );
      if (r?.state !== 'committed' || r.quantity !== o.quantity || r.productId !== o.productId)
        report(
          'order-stock',
          `${name}: ${o.quantity} of product ${o.productId}, reservation ` +
            (r ? `${r.state}, ${r.quantity} of product ${r.productId}` : 'missing'),
        );
    } else if (o.status === 'cancelled') {
      counts.cancelled++;
      if (t?.state === 'posted' || t?.state === 'posting')
        report('order-payment', `${name}: its payment of ${rupees(t.amount)} is ${t.state}`);
      if (r?.state === 'committed') report('order-stock', `${name}: its reservation is committed`);
    } else if (o.status === 'refunded') {
      counts.refunded++;
      if (t?.state !== 'posted')
        report('order-payment', `${name}: ${t ? `its payment is ${t.state}` : 'no payment'}`);
      // Its units are back in stock (docs/adr/028).
      if (r?.state !== 'returned')
        report('order-stock', `${name}: its reservation is ${r ? r.state : 'missing'}, not returned`);
    } else {
      counts.pending++;
      const overdue = now.getTime() - new Date(o.deadlineAt).getTime();
      if (overdue > graceMs)
        report(
          'order-overdue',
          `${name} at step ${o.step}, ${Math.round(overdue / 1000)} s past its deadline`,
        );
    }
  }
  // Money or stock taken for no order.
  for (const t of payments.values())
    if (t.state === 'posted' && !ordered.has(t.key.replace(/^hold:/, '')))
      report('order-payment', `payment ${t.key} (${rupees(t.amount)}) posted for no order`);
  for (const r of reservations.values())
    if (r.state === 'committed' && !ordered.has(r._id))
      report(
        'order-stock',
        `reservation ${r._id} (${r.quantity} of product ${r.productId}) committed for no order`,
      );

  return {
    ledger,
    products: products.size,
    productsUnchecked,
    unitsSold,
    orders: counts,
    breaks,
    ms: Date.now() - started,
  };
}

/** What the CLI prints: one summary line, then each break on its own line. */
export function systemLines(r: SystemReport, listed = 50): string[] {
  const n = (x: number) => x.toLocaleString('en-US');
  const counted =
    `${n(r.ledger.accounts)} accounts, ${n(r.ledger.entries)} entries summing to ₹0.00; ` +
    `${n(r.products)} products` +
    (r.productsUnchecked ? ` (${n(r.productsUnchecked)} without a supplied stock, not summed)` : '') +
    `, ${n(r.unitsSold)} units sold; ${n(r.orders.completed)} completed, ${n(r.orders.cancelled)} cancelled, ` +
    `${n(r.orders.pending)} pending, ${n(r.orders.refunded)} refunded orders`;
  if (!r.breaks.length) return [`system-check: OK — ${counted} (${(r.ms / 1000).toFixed(1)} s)`];
  const more = r.breaks.length > listed ? [`  … ${r.breaks.length - listed} more`] : [];
  return [
    `system-check: ${r.breaks.length} break${r.breaks.length === 1 ? '' : 's'}`,
    ...r.breaks.slice(0, listed).map((b) => `  ${b.kind}: ${b.detail}`),
    ...more,
  ];
}
