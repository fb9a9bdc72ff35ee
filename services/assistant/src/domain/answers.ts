import {
  type ChatAudience,
  chatAudienceOf,
  chatGreetingFor,
  failureReasonDetail,
  formatPaise,
  longDateTime,
  stockLabel,
  transactionStatusLabel,
  transactionTypeLabel,
} from '@qm/contracts/rest';
import type {
  ActivityFact,
  LatestRefund,
  Listed,
  OrderFact,
  PendingUserFact,
  PlatformFacts,
  ProductFact,
  RefundFact,
  TransactionFact,
  UserFact,
  WalletFact,
} from './facts';
import type { AdminTopic, Period } from './intents';

/**
 * The built-in engine's wording: short lines and "•" bullets, money in INR and dates as the UI
 * shows them (in India Standard Time). Record text (descriptions, details) is quoted as data and
 * cut short; it never changes what is said around it.
 */

export const SHOWN = 5;
const when = (iso: string) => longDateTime(iso);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
/** Record text inside an answer: one line, bounded. */
export const quote = (text: string, max = 160) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

/** What the assistant can do, per audience (@qm/contracts chatAudienceOf: the chips' rule too). */
export const CAPABILITIES: Record<ChatAudience, string[]> = {
  buyer: [
    '• "Show my orders" — your purchases',
    '• "Order #12" — one of your orders',
    '• "What happened to my refund?" — where your refund request stands (add an order number)',
    '• "Check wallet balance" — your balance and any amount on hold',
    '• "Latest transactions" — your wallet history (add "today" or "last 7 days")',
    '• "Military products" — what the market offers; name a type or a product for details',
    '• "My recent activity" — what you did lately',
  ],
  seller: [
    '• "Show my sales" — the orders for your products',
    '• "Order #12" — one of your orders',
    '• "Check wallet balance" — your balance and any amount on hold',
    '• "Latest transactions" — your wallet history (add "today" or "last 7 days")',
    '• "Military products" — what the market offers; name a type or a product for details',
    '• "My recent activity" — what you did lately',
  ],
  admin: [
    '• "Pending users" — accounts waiting for your approval',
    '• "Open queries" — support queries still to answer',
    '• "Today\'s orders" — completed orders and their volume today',
    '• "Platform stats" — all of today\'s figures at once',
    '• "Order #12" — any order',
    '• "Military products" — what the market offers',
  ],
};

type Asker = { isAdmin: boolean; isManufacturer?: boolean };
const audience = (user: Asker): ChatAudience =>
  chatAudienceOf({ isAdmin: user.isAdmin, role: user.isManufacturer ? 'Manufacturer' : '' });
const canDo = (user: Asker) => CAPABILITIES[audience(user)];

export function help(user: Asker): string {
  return ["I'm not sure what you're asking. I can help with:", ...canDo(user)].join('\n');
}

/** Anything but the marketplace: declined politely, saying what the assistant is for. */
export function offTopic(user: Asker): string {
  return [
    "Sorry, I can't help with that. I'm the Military Inventory Assistant, and I only answer questions about your Quartermaster account and the market. I can help with:",
    ...canDo(user),
  ].join('\n');
}

/** Another person's records, or a request to drop the rules: declined, and nothing of anyone's shown. */
export function othersData(user: Asker): string {
  return [
    user.isAdmin
      ? "Sorry, I can't do that. I answer as you, with your own access, and my rules don't change on request. Other users' records are on the admin pages. I can help with:"
      : "Sorry, I can't do that. I can only show your own records, and my rules don't change on request. I can help with:",
    ...canDo(user),
  ].join('\n');
}

export function greeting(user: UserFact): string {
  return chatGreetingFor(user);
}

const inPeriod = <T extends { createdAt: string }>(items: T[], period?: Period) =>
  period
    ? items.filter((i) => +new Date(i.createdAt) >= +period.from && +new Date(i.createdAt) < +period.to)
    : items;

function orderLine(o: OrderFact): string {
  const side = o.side;
  const party = o.counterparty ? ` — ${side === 'purchase' ? 'from' : 'to'} ${o.counterparty}` : '';
  const reason = o.status === 'cancelled' && o.cancelReason ? ` (${o.cancelReason})` : '';
  return `• Order #${o.id}: ${o.quantity} × ${o.productName || 'product'} — ${formatPaise(o.totalPaise)} — ${o.status}${reason}${party} — ${when(o.createdAt)}`;
}

export function orders(list: Listed<OrderFact>, side: 'purchase' | 'sale', period?: Period): string {
  const noun = side === 'purchase' ? 'order' : 'sale';
  const items = inPeriod(list.items, period);
  if (!list.total)
    return side === 'purchase'
      ? "You haven't placed any orders yet. Browse the Market to find equipment."
      : 'You have no sales yet. Your products are on the Market for buyers to find.';
  if (period && !items.length) return `You have no ${noun}s ${period.label}.`;
  const shown = items.slice(0, SHOWN);
  const head = period
    ? `Your ${noun}s ${period.label} (${items.length}${items.length > shown.length ? `, newest ${shown.length} shown` : ''}):`
    : `You have ${plural(list.total, noun)}${list.total > shown.length ? `; the newest ${shown.length}` : ''}:`;
  return [head, ...shown.map(orderLine)].join('\n');
}

/** One answer for an order that does not exist and one that is not the caller's: nothing leaks. */
const orderNotFound = (id: number) =>
  `I couldn't find order #${id} among your orders. Check the number on your Orders page.`;

/** " on <date>", or nothing when the date is missing. */
const on = (iso: string) => (iso ? ` on ${when(iso)}` : '');

/** A refund's state on one line of an order's details. */
function refundState(r: RefundFact): string {
  switch (r.status) {
    case 'requested':
      return `requested${on(r.requestedAt)}, waiting for an administrator's decision`;
    case 'approved':
      return `approved${on(r.decidedAt)}`;
    case 'rejected':
      return `rejected${on(r.decidedAt)}${r.decisionReason ? ` — ${quote(r.decisionReason, 120)}` : ''}`;
  }
}

export function order(o: OrderFact | null, id: number): string {
  if (!o) return orderNotFound(id);
  return [
    `Order #${o.id} (${o.side === 'purchase' ? 'your purchase' : 'your sale'}):`,
    `• Product: ${o.productName}${o.productType ? ` (${o.productType})` : ''}`,
    `• Quantity: ${o.quantity}`,
    `• Total: ${formatPaise(o.totalPaise)}`,
    `• Status: ${capital(o.status)}${o.status === 'cancelled' && o.cancelReason ? ` — ${o.cancelReason}` : ''}`,
    ...(o.refund ? [`• Refund: ${refundState(o.refund)}`] : []),
    ...(o.counterparty ? [`• ${o.side === 'purchase' ? 'Seller' : 'Buyer'}: ${o.counterparty}`] : []),
    `• Placed: ${when(o.createdAt)}`,
  ].join('\n');
}

/** Why an order without a refund request has none, in its buyer's words. */
function noRefund(o: OrderFact, now: Date): string {
  const named = `order #${o.id}`;
  if (o.status === 'cancelled')
    return `Order #${o.id} was cancelled, so no money was taken and there is nothing to refund.`;
  if (o.status === 'pending')
    return `Order #${o.id} is still being processed. A refund can be asked for once it is completed.`;
  if (o.status !== 'completed') return `You haven't asked for a refund of ${named}.`;
  if (!o.refundableUntil) return `You haven't asked for a refund of ${named}, and it cannot be refunded.`;
  if (+new Date(o.refundableUntil) <= +now)
    return `You haven't asked for a refund of ${named}, and its refund window closed${on(o.refundableUntil)}.`;
  return `You haven't asked for a refund of ${named}. You can ask for one until ${when(o.refundableUntil)}: use Request refund on your Orders page.`;
}

/**
 * Where the refund of an order stands (docs/adr/028): in its buyer's words when `yours`, else (its
 * seller, an administrator) in the buyer's. An order that is not the caller's reads as one that does
 * not exist.
 */
export function refund(o: OrderFact | null, id: number, yours: boolean, now = new Date()): string {
  if (!o) return orderNotFound(id);
  const r = o.refund;
  const named = `order #${o.id}${o.productName ? ` (${o.productName})` : ''}`;
  if (!r) return yours ? noRefund(o, now) : `No refund has been asked for ${named}.`;
  switch (r.status) {
    case 'requested':
      return [
        `${yours ? 'You' : 'The buyer'} asked for a refund of ${named}${on(r.requestedAt)}. It is waiting for an administrator's decision.`,
        ...(r.reason ? [`• ${yours ? 'Your reason' : 'Reason'}: ${quote(r.reason)}`] : []),
      ].join('\n');
    case 'approved':
      return `${yours ? 'Your' : 'The'} refund of ${named} was approved${on(r.decidedAt)}: ${formatPaise(o.totalPaise)} was returned to ${yours ? 'your' : "the buyer's"} wallet.`;
    case 'rejected':
      return [
        `${yours ? 'Your' : 'The'} refund request for ${named} was rejected${on(r.decidedAt)}.`,
        ...(r.decisionReason ? [`• Administrator's reason: ${quote(r.decisionReason)}`] : []),
      ].join('\n');
  }
}

/** The caller's latest refund request, or why there is none to tell of. */
export function latestRefund(found: LatestRefund, now = new Date()): string {
  if (found.order) return refund(found.order, found.order.id, true, now);
  if (!found.total) return "You haven't placed any orders yet, so there is no refund to follow.";
  if (found.looked >= found.total)
    return "You haven't asked for a refund of any of your orders. A completed purchase can be refunded within its refund window: use Request refund on your Orders page.";
  return `You haven't asked for a refund of any of your latest ${found.looked} orders. For an older one, ask with its number, e.g. "Refund for order #12".`;
}

export const REFUNDS_ON_ADMIN_PAGE =
  'Refund requests are on the Refunds page (Admin → Refunds). Ask about one by its order number, e.g. "Refund for order #12".';

export function balance(w: WalletFact): string {
  const lines = [`Your wallet balance is ${formatPaise(w.balancePaise)}.`];
  if (w.heldPaise > 0)
    lines.push(
      `${formatPaise(w.heldPaise)} is on hold for purchases in progress, so ${formatPaise(w.availablePaise)} is available to spend.`,
    );
  if (w.balancePaise === 0) lines.push('Use Add Money on your Wallet page to top it up.');
  return lines.join('\n');
}

/**
 * One history line as the wallet page shows it: its type ("Top-up", not "Credit", for a top-up that
 * brought no money) and its status ("expired" for a checkout never paid), with why a failed one failed.
 */
function transactionLine(t: TransactionFact): string {
  const status = transactionStatusLabel(t).toLowerCase();
  const reason = t.status === 'failed' && t.failureReason ? ` (${failureReasonDetail(t.failureReason)})` : '';
  return `• ${transactionTypeLabel(t)} ${formatPaise(t.amountPaise)} — ${quote(t.description, 80) || 'Wallet'} — ${status}${reason} — ${when(t.createdAt)}`;
}

export function transactions(list: Listed<TransactionFact>, period?: Period): string {
  if (!list.total)
    return 'You have no wallet transactions yet. Add money from your Wallet page to get started.';
  const items = inPeriod(list.items, period);
  if (period && !items.length) return `You have no transactions ${period.label}.`;
  const shown = items.slice(0, SHOWN);
  const head = period
    ? `Your transactions ${period.label}:`
    : `Your latest ${plural(shown.length, 'transaction')} (of ${list.total}):`;
  return [head, ...shown.map(transactionLine)].join('\n');
}

const productLine = (p: ProductFact) =>
  `• ${p.name} (${p.type}) — ${formatPaise(p.pricePaise)} — ${stockLabel(p.stock)}`;

export function products(list: Listed<ProductFact>, what: { type?: string; query?: string }): string {
  const about = [what.query && `"${what.query}"`, what.type && `of type ${what.type}`]
    .filter(Boolean)
    .join(' ');
  if (!list.total)
    return about ? `I found no products ${about} on the market.` : 'There are no products on the market yet.';
  const shown = list.items.slice(0, SHOWN);
  const head = `${plural(list.total, 'product')} on the market${about ? ` ${about}` : ''}${list.total > shown.length ? `; the newest ${shown.length}` : ''}:`;
  return [head, ...shown.map(productLine), 'Open the Market to buy or see more.'].join('\n');
}

export function productDetails(p: ProductFact): string {
  return [
    `${p.name} (${p.type})`,
    `• Price: ${formatPaise(p.pricePaise)} per unit`,
    `• Stock: ${stockLabel(p.stock)}${p.stock > 5 ? ` (${p.stock} units)` : ''}`,
    ...(p.description ? [`• Description: ${quote(p.description, 240)}`] : []),
  ].join('\n');
}

export function activity(items: ActivityFact[]): string {
  if (!items.length) return 'No activity is recorded for you yet.';
  return [
    'Your recent activity:',
    ...items
      .slice(0, SHOWN)
      .map(
        (a) =>
          `• ${a.action.replace(/_/g, ' ')}${a.details ? ` — ${quote(a.details, 80)}` : ''} — ${when(a.createdAt)}`,
      ),
  ].join('\n');
}

const ALL_TOPICS: AdminTopic[] = [
  'all_users',
  'pending_users',
  'open_queries',
  'orders_today',
  'pending_orders',
  'top_ups',
];

/**
 * An administrator's figures, today in India Standard Time: the ones asked for ("How many pending users
 * and queries are there?"), or all of them. Pending users are named, oldest first, when asked for.
 */
export function platform(
  f: PlatformFacts,
  topics: AdminTopic[] = [],
  pending?: Listed<PendingUserFact>,
): string {
  const asked = topics.length ? topics : ALL_TOPICS;
  const lines: string[] = [];
  for (const topic of asked) {
    if (topic === 'all_users') lines.push(`• Users: ${f.totalUsers} in all, ${f.approvedUsers} approved`);
    if (topic === 'pending_users') {
      lines.push(`• Pending users awaiting approval: ${f.pendingApprovals}`);
      if (pending?.items.length)
        lines.push(
          ...pending.items.map(
            (u) =>
              `  – ${quote(u.name || u.username, 60)} (${u.username}, ${u.role}) — registered ${when(u.createdAt)}`,
          ),
          ...(pending.total > pending.items.length
            ? [`  – and ${pending.total - pending.items.length} more`]
            : []),
        );
    }
    if (topic === 'open_queries') lines.push(`• Open support queries: ${f.openQueries}`);
    if (topic === 'orders_today')
      lines.push(`• Completed orders today: ${f.ordersToday}, volume ${formatPaise(f.ordersTodayPaise)}`);
    if (topic === 'pending_orders') lines.push(`• Orders in progress: ${f.pendingOrders}`);
    if (topic === 'top_ups')
      lines.push(`• Top-ups today: ${f.topUpsToday} (${formatPaise(f.topUpsTodayPaise)})`);
  }
  const tail =
    asked.includes('pending_users') && f.pendingApprovals > 0
      ? ['Approve or reject them on the Users page.']
      : [];
  return [
    topics.length
      ? 'Here are the figures (today is India Standard Time):'
      : 'Platform today (India Standard Time):',
    ...lines,
    ...tail,
  ].join('\n');
}

export const PLATFORM_ADMINS_ONLY =
  'Platform figures are for administrators only. I can tell you about your own orders, wallet, transactions and the products on the market.';
export const SALES_MANUFACTURERS_ONLY =
  'Sales are shown to Manufacturers only. Ask "Show my orders" to see your purchases.';
