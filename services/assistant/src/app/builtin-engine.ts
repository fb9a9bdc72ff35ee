import { type Caller, hasRole } from '@qm/platform';
import * as say from '../domain/answers';
import type { ChatTools, UserFact } from '../domain/facts';
import { understand } from '../domain/intents';

/** The caller as the engines need them: roles at once, name and division read when asked for. */
export interface AskingUser {
  isAdmin: boolean;
  isManufacturer: boolean;
  full(): Promise<UserFact>;
}

export function lazyUser(caller: Caller, tools: ChatTools): AskingUser {
  let read: Promise<UserFact> | undefined;
  return {
    isAdmin: hasRole(caller, 'Admin'),
    isManufacturer: hasRole(caller, 'Manufacturer'),
    full: () => (read ??= tools.me()),
  };
}

export interface Answer {
  response: string;
  intent: string;
}

/** Enough rows to answer "today" or "last 7 days" from the newest page. */
const PERIOD_ROWS = 32;

/**
 * The local default: recognises the question (domain/intents), asks the caller's own tools and
 * words the facts (domain/answers). Nothing is invented; every figure comes from a tool. Questions
 * about anything else, about other people's records, or asking it to drop its rules are declined,
 * saying what it can help with; the caller's own records never stand in for someone else's.
 */
export async function builtinAnswer(question: string, tools: ChatTools, user: AskingUser): Promise<Answer> {
  const q = await understand(question);
  const rows = q.period ? PERIOD_ROWS : say.SHOWN;
  const isMaker = user.isManufacturer;
  let intent = q.intent;
  // A buyer's "how many orders today" is about their own orders, not the platform's.
  if (intent === 'platform_stats' && !user.isAdmin && q.personal) intent = q.personal;
  // Administrators oversee the platform's figures; anything else naming other people is declined.
  if (q.asksForOthers && !(intent === 'platform_stats' && user.isAdmin)) intent = 'others_data';

  switch (intent) {
    case 'others_data':
      return { intent: 'others_data', response: say.othersData(user) };
    case 'off_topic':
      return { intent: 'off_topic', response: say.offTopic(user) };
    case 'greeting':
      return { intent: 'greeting', response: say.greeting(await user.full()) };
    case 'order_lookup': {
      const o = await tools.order(q.orderId!);
      return { intent: 'order_lookup', response: say.order(o, q.orderId!) };
    }
    case 'refund_status': {
      if (q.orderId) {
        const o = await tools.order(q.orderId);
        // An administrator reads any order and buys none; a seller reads the buyer's request on a sale.
        const yours = o?.side === 'purchase' && !user.isAdmin;
        return { intent: 'refund_status', response: say.refund(o, q.orderId, yours) };
      }
      if (user.isAdmin) return { intent: 'refund_status', response: say.REFUNDS_ON_ADMIN_PAGE };
      return { intent: 'refund_status', response: say.latestRefund(await tools.latestRefund()) };
    }
    case 'platform_stats': {
      if (!user.isAdmin) return { intent: 'refused', response: say.PLATFORM_ADMINS_ONLY };
      const topics = q.adminTopics ?? [];
      const [facts, pending] = await Promise.all([
        tools.platform(),
        topics.includes('pending_users') ? tools.pendingUsers(say.SHOWN) : undefined,
      ]);
      return { intent: 'platform_stats', response: say.platform(facts, topics, pending) };
    }
    case 'sales':
      if (!isMaker) return { intent: 'refused', response: say.SALES_MANUFACTURERS_ONLY };
      return { intent: 'sales', response: say.orders(await tools.sales(rows), 'sale', q.period) };
    case 'orders':
      return { intent: 'orders', response: say.orders(await tools.purchases(rows), 'purchase', q.period) };
    case 'wallet_balance':
      return { intent: 'wallet_balance', response: say.balance(await tools.wallet()) };
    case 'transactions':
      return {
        intent: 'transactions',
        response: say.transactions(await tools.transactions(rows), q.period),
      };
    case 'activity':
      return { intent: 'activity', response: say.activity(await tools.activity(say.SHOWN)) };
    case 'product_details': {
      const found = await tools.products({ query: q.productQuery, type: q.productType, limit: say.SHOWN });
      if (found.total === 1)
        return { intent: 'product_details', response: say.productDetails(found.items[0]!) };
      return {
        intent: 'products',
        response: say.products(found, { query: q.productQuery, type: q.productType }),
      };
    }
    case 'products': {
      let found = await tools.products({ query: q.productQuery, type: q.productType, limit: say.SHOWN });
      // "weapons for the Army": the leftover words need not be in any name; the type is enough.
      if (!found.total && q.productQuery && q.productType)
        found = await tools.products({ type: q.productType, limit: say.SHOWN });
      else if (!found.total && q.productQuery) found = await tools.products({ limit: say.SHOWN });
      const query =
        found.total && q.productQuery && found.items.some((p) => matches(p.name, q.productQuery!))
          ? q.productQuery
          : undefined;
      if (found.total === 1 && query)
        return { intent: 'product_details', response: say.productDetails(found.items[0]!) };
      return { intent: 'products', response: say.products(found, { query, type: q.productType }) };
    }
    case 'help': {
      if (q.productQuery) {
        const found = await tools.products({ query: q.productQuery, limit: say.SHOWN });
        if (found.total === 1)
          return { intent: 'product_details', response: say.productDetails(found.items[0]!) };
        if (found.total > 1)
          return { intent: 'products', response: say.products(found, { query: q.productQuery }) };
      }
      return { intent: 'help', response: say.help(user) };
    }
  }
}

const matches = (name: string, query: string) =>
  query.split(' ').some((w) => w.length > 2 && name.toLowerCase().includes(w));
