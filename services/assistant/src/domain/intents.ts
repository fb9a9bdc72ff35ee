import { PRODUCT_TYPES } from '@qm/contracts/rest';

/**
 * What a question asks for, read without a model: the four chips and their free-text variants, an
 * order number, a product type or name, and a period. Pure, so every phrasing is a unit test.
 */

export type Intent =
  | 'orders'
  | 'sales'
  | 'order_lookup'
  | 'wallet_balance'
  | 'transactions'
  | 'products'
  | 'product_details'
  | 'activity'
  | 'platform_stats'
  | 'greeting'
  | 'help';

/** A span of India Standard Time days, [from, to) as instants. */
export interface Period {
  label: string;
  from: Date;
  to: Date;
}

export interface Understood {
  intent: Intent;
  orderId?: number;
  productType?: string;
  /** Words that may name a product ("tell me about the Night Vision Goggles"). */
  productQuery?: string;
  period?: Period;
  /** The question reached for other people's data ("all users' orders"). */
  asksForOthers: boolean;
}

const has = (text: string, re: RegExp) => re.test(text);

const OTHERS =
  /\b(all|every|other|another|each)\s+(users?|buyers?|people|persons?|customers?|accounts?|members?)\b|\beveryone\b|\bsomeone else\b|\bother people\b|\ball (the )?orders\b|\buser\s*(id\s*)?#?\d+\b/;
const ORDER_REF = /\border\s*(?:no\.?|number|id|#)?\s*#?\s*(\d{1,15})\b|#\s*(\d{1,15})\b/;
const GREETING =
  /^(hi|hello|hey|hii+|good (morning|afternoon|evening)|namaste|greetings)\b[\s!.,]*(there|assistant)?[\s!.]*$/;
const PLATFORM =
  /\b(platform|statistics|stats|dashboard|pending approvals?|approvals?|open (support )?quer(y|ies)|support quer(y|ies)|how many (users|orders|top-?ups))\b/;
const SALES = /\b(sales|sold|selling|my customers|revenue)\b/;
const ORDERS = /\b(orders?|purchases?|purchased|bought|deliveries|my buys)\b/;
const BALANCE = /\b(balance|how much (money|funds?|cash)|funds?|money (do i have|left)|afford)\b/;
const TRANSACTIONS =
  /\b(transactions?|payments?|transfers?|top-?ups?|credits?|debits?|spent|spending|statement|history)\b/;
const WALLET = /\bwallet\b/;
const ACTIVITY = /\b(activit(y|ies)|did i do|logins?|log-?ins?|signed in|sign-?ins?)\b/;
const PRODUCTS =
  /\b(products?|equipment|weapons?|vehicles?|ammunition|ammo|catalog(ue)?|inventory|items?|military|gear|available|stock|market|sell|buy)\b/;
const DETAILS =
  /\b(about|details?|describe|tell me|price of|cost of|stock of|how much is|how much does|info(rmation)?)\b/;

const STOP_WORDS = new Set(
  (
    'a an the of for me my i is are do does what whats show tell about details detail describe give list ' +
    'find search look looking price cost stock how much many any some please can you your there have has ' +
    'in on to with and or info information available which who need want see get latest recent all product products ' +
    'equipment military item items is it this that'
  ).split(' '),
);

const TYPE_WORDS: Record<string, string> = {
  weapon: 'Weapon',
  weapons: 'Weapon',
  rifle: 'Weapon',
  rifles: 'Weapon',
  vehicle: 'Vehicle',
  vehicles: 'Vehicle',
  ammunition: 'Ammunition',
  ammo: 'Ammunition',
};

function productTypeIn(text: string): string | undefined {
  for (const t of PRODUCT_TYPES)
    if (t !== 'Equipment' && new RegExp(`\\b${t.toLowerCase()}s?\\b`).test(text)) return t;
  for (const [word, type] of Object.entries(TYPE_WORDS))
    if (new RegExp(`\\b${word}\\b`).test(text)) return type;
  return undefined;
}

/** The words of a question that are left once the asking is taken away; '' when none. */
export function productWords(text: string): string {
  return text
    .replace(/[^\p{L}\p{N}\s-]/gu, ' ')
    .split(/\s+/)
    .filter((w) => w && !STOP_WORDS.has(w))
    .join(' ')
    .slice(0, 100);
}

const DAY_MS = 86_400_000;
/** India Standard Time is UTC+05:30 all year. */
const IST_OFFSET_MS = 330 * 60_000;

function istMidnight(now: Date, daysBack = 0): Date {
  const local = now.getTime() + IST_OFFSET_MS;
  return new Date(local - (local % DAY_MS) - IST_OFFSET_MS - daysBack * DAY_MS);
}

/** "today", "yesterday", "this week/month", "last week/month", "last N days". */
export function periodIn(text: string, now = new Date()): Period | undefined {
  const today = istMidnight(now);
  const tomorrow = new Date(today.getTime() + DAY_MS);
  if (/\btoday\b/.test(text)) return { label: 'today', from: today, to: tomorrow };
  if (/\byesterday\b/.test(text)) return { label: 'yesterday', from: istMidnight(now, 1), to: today };
  const n = /\b(?:last|past)\s+(\d{1,3})\s+days?\b/.exec(text);
  if (n) {
    const days = Math.max(1, Math.min(365, Number(n[1])));
    return { label: `in the last ${days} days`, from: istMidnight(now, days - 1), to: tomorrow };
  }
  if (/\b(this|current) week\b/.test(text))
    return { label: 'in the last 7 days', from: istMidnight(now, 6), to: tomorrow };
  if (/\b(last|past|previous) week\b/.test(text))
    return { label: 'in the previous week', from: istMidnight(now, 13), to: istMidnight(now, 6) };
  if (/\b(this|current) month\b/.test(text))
    return { label: 'in the last 30 days', from: istMidnight(now, 29), to: tomorrow };
  if (/\b(last|past|previous) month\b/.test(text))
    return { label: 'in the previous 30 days', from: istMidnight(now, 59), to: istMidnight(now, 29) };
  return undefined;
}

export function understand(question: string, now = new Date()): Understood {
  const text = question.toLowerCase().replace(/[’']/g, "'").replace(/\s+/g, ' ').trim();
  const asksForOthers = has(text, OTHERS);
  const period = periodIn(text, now);
  const base = { asksForOthers, period };

  const ref = ORDER_REF.exec(text);
  if (ref && (has(text, /\border\b/) || text.trim().startsWith('#')))
    return { ...base, intent: 'order_lookup', orderId: Number(ref[1] ?? ref[2]) };
  if (has(text, GREETING)) return { ...base, intent: 'greeting' };
  if (has(text, PLATFORM) && !has(text, /\bmy\b/)) return { ...base, intent: 'platform_stats' };
  if (has(text, SALES)) return { ...base, intent: 'sales' };
  if (has(text, ORDERS)) return { ...base, intent: 'orders' };
  if (has(text, BALANCE)) return { ...base, intent: 'wallet_balance' };
  if (has(text, TRANSACTIONS)) return { ...base, intent: 'transactions' };
  if (has(text, WALLET)) return { ...base, intent: 'wallet_balance' };
  if (has(text, ACTIVITY)) return { ...base, intent: 'activity' };

  const productType = productTypeIn(text);
  const words = productWords(text);
  const namedWords = words
    .split(' ')
    .filter((w) => !TYPE_WORDS[w] && !PRODUCT_TYPES.some((t) => t.toLowerCase() === w.replace(/s$/, '')))
    .join(' ');
  if (has(text, DETAILS) && namedWords)
    return { ...base, intent: 'product_details', productQuery: namedWords, productType };
  if (has(text, PRODUCTS) || productType)
    return { ...base, intent: 'products', productType, productQuery: namedWords || undefined };
  // A bare name ("Night Vision Goggles") may be a product; the engine looks it up before giving help.
  if (words) return { ...base, intent: 'help', productQuery: words };
  return { ...base, intent: 'help' };
}
