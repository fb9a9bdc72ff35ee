import {
  AiChatReplySchema,
  AiContextSchema,
  CHAT_LIMITS,
  ChatHistorySchema,
  ChatReplySchema,
  ClearChatHistorySchema,
  type ChatReply,
  type ChatRole,
} from '@qm/contracts/rest';
import { apiFetch } from '@qm/ui';
import { z } from 'zod';

/** The assistant's calls (docs/product.md §7), each answer checked against the contract. */

/** POST /api/chat/message: a null session starts a new one. */
export async function sendChatMessage(message: string, sessionId: number | null): Promise<ChatReply> {
  const body = await apiFetch('/api/chat/message', { method: 'POST', body: { message, sessionId } });
  return ChatReplySchema.parse(body);
}

/** GET /api/chat/history: the caller's active session, to restore the conversation. */
export async function fetchChatHistory() {
  return ChatHistorySchema.parse(await apiFetch('/api/chat/history'));
}

/** DELETE /api/chat/clear-history: every stored session and message of the caller. */
export async function clearChatHistory() {
  return ClearChatHistorySchema.parse(await apiFetch('/api/chat/clear-history', { method: 'DELETE' }));
}

/** What the panel knows of the account (docs/product.md §3 "AI context", as far as it could be loaded). */
export interface AssistantContext {
  walletBalance: string | null;
  /** The latest activity actions, newest first (at most 5). */
  recentActivity: string[];
}

/** POST /api/ai/chat: the fallback when the chat call fails; only the last 6 messages go along. */
export async function askFallback(
  query: string,
  messages: { role: ChatRole; content: string }[],
  context: AssistantContext | null,
) {
  const body = await apiFetch('/api/ai/chat', {
    method: 'POST',
    body: {
      query,
      context: {
        messages: messages.slice(-CHAT_LIMITS.contextMessages),
        ...(context ? { walletBalance: context.walletBalance, recentActivity: context.recentActivity } : {}),
      },
    },
  });
  return AiChatReplySchema.parse(body);
}

const WalletBalanceSchema = z.object({ balance: z.string() });
/** GET /api/user/activity: only the actions are used. */
const MyActionsSchema = z.object({ activities: z.array(z.object({ action: z.string() })) });

/**
 * The context (docs/product.md §7): GET /api/ai/user-context; when it fails, GET /api/wallet for the balance and
 * GET /api/user/activity for the first 5 actions. Throws only when neither source answers.
 */
export async function loadAssistantContext(): Promise<AssistantContext> {
  try {
    const { wallet, user } = AiContextSchema.parse(await apiFetch('/api/ai/user-context'));
    return {
      walletBalance: wallet.balance,
      recentActivity: user.recentActivity.slice(0, CHAT_LIMITS.contextActivities).map((a) => a.action),
    };
  } catch {
    return loadFallbackContext();
  }
}

async function loadFallbackContext(): Promise<AssistantContext> {
  const [wallet, activity] = await Promise.allSettled([
    apiFetch('/api/wallet').then((body) => WalletBalanceSchema.parse(body)),
    apiFetch(`/api/user/activity?pageSize=${CHAT_LIMITS.contextActivities}`).then((body) =>
      MyActionsSchema.parse(body),
    ),
  ]);
  if (wallet.status === 'rejected' && activity.status === 'rejected') throw wallet.reason;
  return {
    walletBalance: wallet.status === 'fulfilled' ? wallet.value.balance : null,
    recentActivity:
      activity.status === 'fulfilled'
        ? activity.value.activities.slice(0, CHAT_LIMITS.contextActivities).map((a) => a.action)
        : [],
  };
}
