import type { assistantV1 } from '@qm/contracts/grpc';
import {
  AiChatBody,
  AiChatReplySchema,
  AiContextSchema,
  CHAT_LIMITS,
  CHAT_MESSAGES,
  ChatHistorySchema,
  ChatMessageBody,
  type ChatMessageView,
  ChatReplySchema,
  ClearChatHistorySchema,
  formatMoney,
  GeneratedDescriptionSchema,
  GenerateDescriptionBody,
} from '@qm/contracts/rest';

import type { GatewayDeps } from '../deps';
import type { Api } from '../http/api';
import { limit } from '../http/rate-limit';

/** A model answer may take the assistant's OPENAI_TIMEOUT_MS (15 s) before it falls back; wait past that. */
const DESCRIPTION_DEADLINE_MS = 20_000;

/** A model answer with tool calls may take a few rounds of OPENAI_TIMEOUT_MS; the built-in engine answers in ms. */
const CHAT_DEADLINE_MS = 30_000;

/**
 * A budget per user for each chat call (docs/product.md §9 allows a message a second from the panel), scaled by
 * AUTH_RATE_LIMIT_SCALE for load tests like the other per-client limits.
 */
const chatLimit = (scale: number) =>
  limit({
    windowMs: 60_000,
    limit: Math.round(CHAT_LIMITS.perMinute * scale),
    key: 'user',
    message: CHAT_MESSAGES.tooMany,
  });

const messageToRest = (m: assistantV1.ChatMessage): ChatMessageView => ({
  id: m.id,
  sessionId: m.sessionId,
  role: m.role as ChatMessageView['role'],
  content: m.content,
  intent: m.intent || null,
  createdAt: m.createdAt,
});

/** The AI service's REST area (docs/product.md §7 `/api/{ai}/...` with `{ai}` = `ai`, and `/api/chat/...`). */
export function registerAssistantRoutes(api: Api, { clients, config }: GatewayDeps): void {
  const scale = config.AUTH_RATE_LIMIT_SCALE;
  api.route({
    method: 'post',
    path: '/api/ai/generate-description',
    tag: 'AI',
    summary:
      'Draft a product description from name, category (the product type) and features. Empty features ' +
      'stand for "military-grade performance, advanced capabilities"; no name or type: "Missing information". ' +
      'Manufacturers only: it drafts the description of a product they create or edit.',
    access: { roles: ['Manufacturer'] },
    before: [
      limit({
        windowMs: 60_000,
        limit: 30,
        message: 'Too many description requests. Please wait a minute and try again.',
      }),
    ],
    body: GenerateDescriptionBody,
    response: GeneratedDescriptionSchema,
    async handler({ body }) {
      const out = await clients.assistant.generateDescription(
        { name: body.name, category: body.category, features: body.features },
        { deadlineMs: DESCRIPTION_DEADLINE_MS },
      );
      return { description: out.description };
    },
  });

  api.route({
    method: 'post',
    path: '/api/chat/message',
    tag: 'AI',
    summary:
      "Asks the assistant. It answers from the caller's own orders, wallet, transactions, activity and the " +
      'market (administrators also platform figures) and stores both messages in the session; no sessionId ' +
      'starts a new session "New Chat". `intent` says what was understood; `actionTaken` is set when it did ' +
      'something besides answering (renaming the chat).',
    access: 'user',
    before: [chatLimit(scale)],
    body: ChatMessageBody,
    response: ChatReplySchema,
    errors: { 404: CHAT_MESSAGES.sessionNotFound },
    async handler({ body }) {
      const out = await clients.assistant.sendChatMessage(
        { message: body.message, sessionId: body.sessionId ?? 0 },
        { deadlineMs: CHAT_DEADLINE_MS },
      );
      return { ...out, actionTaken: out.actionTaken || null };
    },
  });

  api.route({
    method: 'get',
    path: '/api/chat/history',
    tag: 'AI',
    summary: `The caller's active chat session and its newest ${CHAT_LIMITS.historyMax} messages, oldest first.`,
    access: 'user',
    response: ChatHistorySchema,
    async handler() {
      const h = await clients.assistant.getChatHistory({});
      return {
        sessionId: h.sessionId || null,
        name: h.name || null,
        messages: h.messages.map(messageToRest),
      };
    },
  });

  api.route({
    method: 'delete',
    path: '/api/chat/clear-history',
    tag: 'AI',
    summary: "Deletes all of the caller's chat history (every message marked deleted, every session closed).",
    access: 'user',
    before: [chatLimit(scale)],
    response: ClearChatHistorySchema,
    handler: () => clients.assistant.clearChatHistory({}),
  });

  api.route({
    method: 'get',
    path: '/api/ai/user-context',
    tag: 'AI',
    summary: 'What the assistant knows of the caller: wallet balance, newest activity, product interests.',
    access: 'user',
    response: AiContextSchema,
    async handler() {
      const c = await clients.assistant.getUserContext({}, { deadlineMs: CHAT_DEADLINE_MS });
      return {
        wallet: { balance: formatMoney(c.walletBalancePaise) },
        user: {
          userId: c.userId,
          username: c.username,
          role: c.role,
          name: c.name,
          recentActivity: c.recentActivity.map((a) => ({
            action: a.action,
            details: a.details,
            created_at: a.createdAt,
          })),
          productInterests: c.productInterests,
        },
      };
    },
  });

  api.route({
    method: 'post',
    path: '/api/ai/chat',
    tag: 'AI',
    summary:
      "The fallback chat when /api/chat/message fails: answers from the caller's own data with the " +
      `conversation in context.messages (at most ${CHAT_LIMITS.contextMessages}); stores nothing.`,
    access: 'user',
    before: [chatLimit(scale)],
    body: AiChatBody,
    response: AiChatReplySchema,
    async handler({ body }) {
      return clients.assistant.answerOnce(
        { query: body.query, history: body.context?.messages ?? [] },
        { deadlineMs: CHAT_DEADLINE_MS },
      );
    },
  });
}
