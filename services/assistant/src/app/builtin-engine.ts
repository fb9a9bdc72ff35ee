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
 * words the facts (domain/answers). Nothing is invented; every figure comes from a tool.
 */
export async function builtinAnswer(question: string, tools: ChatTools, user: AskingUser): Promise<Answer> {
  const q = understand(question);
  const others = (text: string) => (q.asksForOthers ? `${say.ONLY_YOURS}\n${text}` : text);
  const rows = q.period ? PERIOD_ROWS : say.SHOWN;
  const isMaker = user.isManufacturer;

  switch (q.intent) {
    case 'greeting':
      return { intent: 'greeting', response: say.greeting(await user.full()) };
    case 'order_lookup': {
      const o = await tools.order(q.orderId!);
      return { intent: 'order_lookup', response: others(say.order(o, q.orderId!)) };
    }
    case 'platform_stats':
      if (!user.isAdmin) return { intent: 'refused', response: say.PLATFORM_ADMINS_ONLY };
      return { intent: 'platform_stats', response: say.platform(await tools.platform()) };
    case 'sales':
      if (!isMaker) return { intent: 'refused', response: say.SALES_MANUFACTURERS_ONLY };
      return { intent: 'sales', response: others(say.orders(await tools.sales(rows), 'sale', q.period)) };
    case 'orders':
      return {
        intent: 'orders',
        response: others(say.orders(await tools.purchases(rows), 'purchase', q.period)),
      };
    case 'wallet_balance':
      return { intent: 'wallet_balance', response: others(say.balance(await tools.wallet())) };
    case 'transactions':
      return {
        intent: 'transactions',
        response: others(say.transactions(await tools.transactions(rows), q.period)),
      };
    case 'activity':
      return { intent: 'activity', response: others(say.activity(await tools.activity(say.SHOWN))) };
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
