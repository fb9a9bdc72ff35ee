import { PRODUCT_TYPES } from '@qm/contracts/rest';
import { classify, MIN_SCORE } from './classifier';

/**
 * What a question asks for, read without a model: the chips and their free-text variants, an order
 * number, a product type or name, a period, an administrator's figures, and what the assistant declines
 * (questions about anything else, other people's data, attempts to change its rules). The intent comes
 * from the classifier (domain/classifier.ts, docs/adr/023) where it is sure and from the rules below
 * otherwise; the slots always from the rules. Every phrasing is a unit test.
 */

export type Intent =
  | 'orders'
  | 'sales'
  | 'order_lookup'
  /** Where a refund of the caller's order stands: the one named by its number, else their latest request. */
  | 'refund_status'
  | 'wallet_balance'
  | 'transactions'
  | 'products'
  | 'product_details'
  | 'activity'
  | 'platform_stats'
  | 'greeting'
  | 'help'
  /** General knowledge, poems, code, weather, jokes: declined, saying what the assistant does. */
  | 'off_topic'
  /** Another person's records, or an attempt to change the rules: declined, never answered with the caller's. */
  | 'others_data';

/** What an administrator's question names; none named means the whole overview. */
export type AdminTopic =
  'all_users' | 'pending_users' | 'open_queries' | 'orders_today' | 'pending_orders' | 'top_ups';

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
  /** For platform_stats: the figures asked for. */
  adminTopics?: AdminTopic[];
  /** For platform_stats: what the rules read when the asker is no administrator ("my orders today"). */
  personal?: Intent;
}

const has = (text: string, re: RegExp) => re.test(text);

const OTHERS =
  /\b(all|every|other|another|each)\s+(users?|buyers?|people|persons?|customers?|accounts?|members?|sellers?|manufacturers?)('s|s')?\b|\beveryone('s)?\b|\b(someone|somebody|anyone) else('s)?\b|\bother people('s)?\b|\ball (the )?orders\b|\b(user|account|buyer|seller|customer)\s*(id\s*)?(no\.?\s*|number\s*)?#?\d+\b|\b(his|her|their) (wallet|balance|orders?|transactions?|account)\b/;
/** Attempts to change who the assistant is or what it may do. */
const INJECTION =
  /\b(ignore|disregard|forget|override|bypass|break)\b.{0,40}\b(rules?|instructions?|guidelines?|restrictions?|prompt|polic(y|ies)|limits?|programming)\b|\b(pretend|act|behave|roleplay|role-play)\s+(to be|as|like|you are|you're)\b|\byou are now\b|\b(developer|god|admin|sudo|debug) mode\b|\bjailbreak|\bsystem prompt\b|\bimpersonat|\blog ?in as\b|\bswitch (to|into) (the )?(account|user)\b|\b(password|otp|pin) of\b|\b(someone|somebody|anyone|another user|other users?)('s)? (password|otp|pin)\b/;
/** Words that own nothing in a possessive: "today's orders" is a period, not a person. */
const NOT_OWNERS = new Set(
  'today yesterday tomorrow week month year day platform market what that it there here let who where how one product item order'.split(
    ' ',
  ),
);
const POSSESSIVE =
  /\b([\p{L}\d_.-]+)'s?\s+(wallets?|balances?|orders?|transactions?|purchases?|activit(y|ies)|accounts?|data|details|history|sales|passwords?|money|funds|profile|records?|queries)\b/u;

function othersNamed(text: string): boolean {
  if (OTHERS.test(text)) return true;
  const m = POSSESSIVE.exec(text);
  return !!m && !NOT_OWNERS.has(m[1]!) && !/^(my|your|our|i)$/.test(m[1]!);
}

const ORDER_REF = /\border\s*(?:no\.?|number|id|#)?\s*#?\s*(\d{1,15})\b|#\s*(\d{1,15})\b/;
/** A refund of the caller's order, named or not ("what happened to my refund", "my money back"). */
const REFUND = /\b(refund(s|ed)?|money back|reimburse(d|ment)?)\b/;
const GREETING =
  /^(hi|hello|hey|hii+|good (morning|afternoon|evening)|namaste|greetings)\b[\s!.,]*(there|assistant)?[\s!.]*$/;
const PLATFORM =
  /\b(platform|statistics|stats|dashboard|pending approvals?|approvals?|open (support )?quer(y|ies)|support quer(y|ies)|how many (users|orders|top-?ups)|pending users?|(new )?registrations?|sign-?ups?|awaiting approval)\b/;
const SALES = /\b(sales|sold|selling|my customers|revenue)\b/;
const ORDERS = /\b(orders?|purchases?|purchased|bought|deliveries|my buys)\b/;
const BALANCE = /\b(balance|how much (money|funds?|cash)|funds?|money (do i have|left)|afford)\b/;
const TRANSACTIONS =
  /\b(transactions?|payments?|transfers?|top-?ups?|credits?|debits?|spent|spend|spending|statement|history|declined)\b/;
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

const ADMIN_TOPICS: [AdminTopic, RegExp][] = [
  [
    'all_users',
    /\b(how many|total|number of|count of)\s+(registered\s+|approved\s+)?(users|accounts|members|people)\b/,
  ],
  [
    'pending_users',
    /\b(pending|waiting|awaiting|unapproved|new)\b.{0,30}\b(users?|accounts?|registrations?|sign-?ups?|approvals?|members?)\b|\b(approvals?|registrations?)\b|\bawaiting approval\b|\bto approve\b/,
  ],
  ['open_queries', /\b(quer(y|ies)|tickets?|support|complaints?)\b/],
  ['orders_today', /\b(orders?|volume|sales|turnover|revenue|purchases?)\b/],
  ['pending_orders', /\b(orders? in progress|pending orders?|orders? (still )?pending)\b/],
  ['top_ups', /\b(top-?ups?|deposits?|added money)\b/],
];

/** The figures an administrator's question names, in the order the answer gives them. */
export function adminTopicsIn(text: string): AdminTopic[] {
  const found = ADMIN_TOPICS.filter(([, re]) => re.test(text)).map(([t]) => t);
  // "pending orders" is about orders in progress, not today's completed ones.
  return found.includes('pending_orders') ? found.filter((t) => t !== 'orders_today') : found;
}

/** The question as the rules read it: lower case, one kind of apostrophe, single spaces. */
export const normalise = (question: string) =>
  question.toLowerCase().replace(/[’‘`]/g, "'").replace(/\s+/g, ' ').trim();

/**
 * Whether a question reaches for other people's records or asks the assistant to drop its rules, by
 * the rules alone (no classifier): both engines decline these before anything is read.
 */
export function declinedByRules(question: string): boolean {
  const text = normalise(question);
  return has(text, INJECTION) || othersNamed(text);
}

/** A classifier score above which its record intent is kept over the keyword rules' reading. */
const SURE = 0.85;

/** What the keyword rules make of a question the classifier is not sure of. */
function byRules(text: string): Intent | undefined {
  if (has(text, PLATFORM) && !has(text, /\bmy\b/)) return 'platform_stats';
  if (has(text, REFUND)) return 'refund_status';
  if (has(text, SALES)) return 'sales';
  if (has(text, ORDERS)) return 'orders';
  if (has(text, BALANCE)) return 'wallet_balance';
  if (has(text, TRANSACTIONS)) return 'transactions';
  if (has(text, WALLET)) return 'wallet_balance';
  if (has(text, ACTIVITY)) return 'activity';
  return undefined;
}

export async function understand(question: string, now = new Date()): Promise<Understood> {
  const text = normalise(question);
  const asksForOthers = othersNamed(text);
  const period = periodIn(text, now);
  const base = { asksForOthers, period };

  if (has(text, INJECTION)) return { ...base, intent: 'others_data' };
  const ref = ORDER_REF.exec(text);
  // "What happened to my refund for order #12?" asks about the refund, not the order.
  if (ref && has(text, REFUND))
    return { ...base, intent: 'refund_status', orderId: Number(ref[1] ?? ref[2]) };
  if (ref && (has(text, /\border\b/) || text.trim().startsWith('#')))
    return { ...base, intent: 'order_lookup', orderId: Number(ref[1] ?? ref[2]) };
  if (has(text, GREETING)) return { ...base, intent: 'greeting' };

  const classified = text ? await classify(text) : undefined;
  const ruled = byRules(text);
  let intent: Intent | undefined = classified?.intent === 'injection' ? 'others_data' : classified?.intent;
  // A record word the rules know ("orders", "balance") outweighs a guess among the record intents, not
  // a sure answer ("who bought my goggles" is about sales although "bought" is an orders word);
  // never a refusal: "write a poem about my orders" is still declined.
  // An administrator's figure ("today's orders") stays one unless the question says "my".
  const overridable = (i: Intent) =>
    !['off_topic', 'others_data', 'product_details'].includes(i) &&
    (i !== 'platform_stats' || has(text, /\bmy\b/));
  if (ruled && intent && overridable(intent) && (classified?.score ?? 0) < SURE) intent = ruled;
  // A hesitant "off topic" yields to a record word, and so does any "off topic" about the caller's own
  // records ("what is the status of my top-up"): reading them reads nothing of anyone else's.
  if (ruled && intent === 'off_topic' && ((classified?.score ?? 0) < MIN_SCORE || has(text, /\bmy\b/)))
    intent = ruled;
  intent ??= ruled;
  if (intent === 'platform_stats')
    return {
      ...base,
      intent,
      adminTopics: adminTopicsIn(text),
      personal: ruled === 'platform_stats' ? undefined : ruled,
    };
  if (intent === 'off_topic' || intent === 'others_data' || intent === 'greeting') return { ...base, intent };
  if (intent && intent !== 'products' && intent !== 'product_details' && intent !== 'help')
    return { ...base, intent };

  const productType = productTypeIn(text);
  const words = productWords(text);
  const namedWords = words
    .split(' ')
    .filter((w) => !TYPE_WORDS[w] && !PRODUCT_TYPES.some((t) => t.toLowerCase() === w.replace(/s$/, '')))
    .join(' ');
  // "what weapons do you sell" is about the market, however much it sounds like "what can you do".
  if (intent === 'help' && !productType && !has(text, PRODUCTS)) return { ...base, intent: 'help' };
  if ((intent === 'product_details' || has(text, DETAILS)) && namedWords)
    return { ...base, intent: 'product_details', productQuery: namedWords, productType };
  if (intent === 'products' || has(text, PRODUCTS) || productType)
    return { ...base, intent: 'products', productType, productQuery: namedWords || undefined };
  // A bare name ("Night Vision Goggles") may be a product; the engine looks it up before giving help.
  if (words) return { ...base, intent: 'help', productQuery: words };
  return { ...base, intent: 'help' };
}
