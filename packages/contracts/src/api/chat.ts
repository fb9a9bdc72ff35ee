import { z } from 'zod';
import { idParam } from './numbers';

/**
 * REST shapes of the chat assistant (docs/product.md §2 "AI chat assistant", §3 chat entities, §5 chat
 * sending, §7 chat and context calls, §8 Assistant, §9 chat limits), shared by the gateway, the
 * assistant service and the shell's panel.
 */

export const CHAT_LIMITS = {
  /** A question longer than this is refused with CHAT_MESSAGES.tooLong. */
  messageMaxChars: 1000,
  /** docs/product.md §9: at most 6 messages go into the fallback context (and the model's context). */
  contextMessages: 6,
  /** docs/product.md §9: at most 5 activities in the fallback context. */
  contextActivities: 5,
  /** docs/product.md §9: a text sent again among the last 3 user messages within 5 s is not sent. */
  duplicateWindowMs: 5000,
  duplicateLookback: 3,
  /** docs/product.md §9: at least 1 s between user messages. */
  minGapMs: 1000,
  /** docs/product.md §7: a 300 ms delay precedes each chat send. */
  sendDelayMs: 300,
  /** Messages returned by GET /api/chat/history (the newest, oldest first). */
  historyMax: 32,
  /** Per user and minute, on the gateway (a built-in answer is cheap, a model's is not). */
  perMinute: 30,
} as const;

/** docs/product.md §3: a new session's name. */
export const DEFAULT_CHAT_SESSION_NAME = 'New Chat';

/** docs/product.md §2: the four chips of an empty chat, as a buyer sees them. */
export const CHAT_CHIPS = [
  'Show my orders',
  'Check wallet balance',
  'Latest transactions',
  'Military products',
] as const;

/** A Manufacturer sells: their sales take the place of purchases. */
export const SELLER_CHAT_CHIPS = [
  'Show my sales',
  'Check wallet balance',
  'Latest transactions',
  'Military products',
] as const;

/** An administrator has no wallet and no purchases: the figures they oversee. */
export const ADMIN_CHAT_CHIPS = [
  'Platform stats',
  'Pending users',
  'Open queries',
  "Today's orders",
] as const;

/** Who the assistant talks to, as its greeting and chips need it (the panel and the service alike). */
export interface ChatPerson {
  firstName?: string | null;
  role?: string | null;
  isAdmin?: boolean | null;
  /** The profile's division, when the role itself is not one. */
  division?: string | null;
}

/** The armed-forces divisions the greeting names (docs/product.md §1, §2). */
export const CHAT_DIVISIONS = ['Army', 'Navy', 'Airforce'] as const;
export type ChatDivision = (typeof CHAT_DIVISIONS)[number];

const asDivision = (value: string | null | undefined): ChatDivision | undefined =>
  CHAT_DIVISIONS.find((division) => division.toLowerCase() === value?.trim().toLowerCase());

/** The person's division: the role when it is one (Army, Navy, Airforce), else the profile's division. */
export function chatDivisionOf(person: ChatPerson): ChatDivision | undefined {
  return asDivision(person.role) ?? asDivision(person.division);
}

export type ChatAudience = 'admin' | 'seller' | 'buyer';

/** One rule for greeting, chips and the list of what the assistant can do. */
export function chatAudienceOf(person: ChatPerson): ChatAudience {
  if (person.isAdmin || person.role === 'Admin') return 'admin';
  return person.role === 'Manufacturer' ? 'seller' : 'buyer';
}

/** The chips of an empty chat for this person. */
export function chatChipsFor(person: ChatPerson): readonly string[] {
  const audience = chatAudienceOf(person);
  return audience === 'admin' ? ADMIN_CHAT_CHIPS : audience === 'seller' ? SELLER_CHAT_CHIPS : CHAT_CHIPS;
}

/**
 * The greeting of an empty chat, by role (docs/product.md §2): a Manufacturer is asked about operations, products
 * and sales; Army, Navy and Airforce about equipment procurement and order tracking for that division;
 * an administrator is offered platform stats and admin tasks; anyone else gets a general greeting.
 * Administrators are greeted by their role: the administrator account is the platform's own (seeded
 * as "System Administrator"), and "Hello System!" greets nobody.
 */
export function chatGreetingFor(person: ChatPerson): string {
  const audience = chatAudienceOf(person);
  if (audience === 'admin')
    return "Hello Administrator! I'm your Military Inventory Assistant. I can give you platform stats (pending users, open queries, today's orders and volume) and help with your admin tasks. What would you like to check?";
  const name = person.firstName?.trim();
  const hello = name ? `Hello ${name}!` : 'Hello!';
  if (audience === 'seller')
    return `${hello} I'm your Military Inventory Assistant. How can I help with your operations today? Ask me about your products, your stock or your sales.`;
  const division = chatDivisionOf(person);
  if (division)
    return `${hello} I'm your Military Inventory Assistant for the ${division}. I can help with equipment procurement for your division and with tracking your orders. What do you need?`;
  return `${hello} I'm your Military Inventory Assistant. Ask me about your orders, your wallet or our products.`;
}

export const CHAT_MESSAGES = {
  empty: 'Please enter a message',
  tooLong: `Message must be at most ${CHAT_LIMITS.messageMaxChars} characters`,
  tooMany: 'Too many messages. Please wait a minute and try again.',
  sessionNotFound: 'Chat session not found',
  loading: 'Analyzing your query and gathering relevant data...',
} as const;

const messageText = z
  .string({ error: CHAT_MESSAGES.empty })
  .trim()
  .min(1, CHAT_MESSAGES.empty)
  .max(CHAT_LIMITS.messageMaxChars, CHAT_MESSAGES.tooLong);

/** POST /api/chat/message: no sessionId (or null) starts a new session. */
export const ChatMessageBody = z.object({
  message: messageText,
  sessionId: idParam('Session id').nullish(),
});
export type ChatMessageInput = z.input<typeof ChatMessageBody>;

/**
 * What the assistant understood (docs/product.md §3 chat reply `intent`). `*_fallback` marks a model failure
 * answered by the built-in engine.
 */
export const CHAT_INTENTS = [
  'orders',
  'sales',
  'order_lookup',
  /** Where a refund of the caller's order stands (by its number, or their latest request). */
  'refund_status',
  'wallet_balance',
  'transactions',
  'products',
  'product_details',
  'activity',
  'platform_stats',
  'greeting',
  'help',
  'refused',
  /** Declined: not about the marketplace (general knowledge, poems, code, weather, jokes). */
  'off_topic',
  /** Declined: another person's records, or an attempt to change the assistant's rules. */
  'others_data',
  'model',
] as const;

export const ChatReplySchema = z.object({
  response: z.string(),
  sessionId: z.number().int(),
  messageId: z.number().int(),
  userMessageId: z.number().int(),
  intent: z.string(),
  /** Set when the assistant did something besides answering; the panel toasts "Action Completed". */
  actionTaken: z.string().nullable(),
});
export type ChatReply = z.infer<typeof ChatReplySchema>;

export const CHAT_ROLES = ['user', 'assistant', 'system'] as const;
export type ChatRole = (typeof CHAT_ROLES)[number];

export const ChatMessageViewSchema = z.object({
  id: z.number().int(),
  sessionId: z.number().int(),
  role: z.enum(CHAT_ROLES),
  content: z.string(),
  intent: z.string().nullable(),
  createdAt: z.string(),
});
export type ChatMessageView = z.infer<typeof ChatMessageViewSchema>;

/** GET /api/chat/history: the caller's active session (null when there is none). */
export const ChatHistorySchema = z.object({
  sessionId: z.number().int().nullable(),
  name: z.string().nullable(),
  messages: z.array(ChatMessageViewSchema),
});
export type ChatHistory = z.infer<typeof ChatHistorySchema>;

/** DELETE /api/chat/clear-history. */
export const ClearChatHistorySchema = z.object({ deletedMessages: z.number().int() });

/** GET /api/ai/user-context (docs/product.md §3 "AI context"; §7: wallet and user.recentActivity). */
export const AiContextSchema = z.object({
  wallet: z.object({ balance: z.string() }),
  user: z.object({
    userId: z.number().int(),
    username: z.string(),
    role: z.string(),
    name: z.string(),
    recentActivity: z.array(z.object({ action: z.string(), details: z.string(), created_at: z.string() })),
    productInterests: z.array(z.string()),
  }),
});
export type AiContext = z.infer<typeof AiContextSchema>;

/**
 * POST /api/ai/chat (docs/product.md §7: the fallback when the chat call fails). `context` is what the panel
 * has: its last 6 messages and what it loaded; the server answers from its own tools with the
 * caller's identity and only takes the conversation from it, never data.
 */
export const AiChatBody = z.object({
  query: messageText,
  context: z
    .object({
      messages: z
        .array(
          z.object({ role: z.enum(CHAT_ROLES), content: z.string().max(CHAT_LIMITS.messageMaxChars * 4) }),
        )
        .max(CHAT_LIMITS.contextMessages, `At most ${CHAT_LIMITS.contextMessages} messages of context`)
        .optional(),
    })
    .passthrough()
    .optional(),
});
export const AiChatReplySchema = z.object({ response: z.string(), intent: z.string() });
