import { CHAT_LIMITS, type ChatMessageView, type ChatRole } from '@qm/contracts/rest';

/** A message of the panel (docs/product.md §3 "Chat message (in the panel)"). */
export interface PanelMessage {
  /** Local identity (React key, and how a loading message is found again). */
  key: string;
  role: ChatRole;
  content: string;
  /** Milliseconds since the epoch. */
  timestamp: number;
  isLoading?: boolean;
  sessionId?: number | null;
  messageId?: number;
  userMessageId?: number;
}

let counter = 0;
export const nextKey = () => `m${Date.now().toString(36)}-${(counter += 1)}`;

export function userMessage(content: string, timestamp: number): PanelMessage {
  return { key: nextKey(), role: 'user', content, timestamp };
}

export function assistantMessage(content: string, timestamp: number, isLoading = false): PanelMessage {
  return { key: nextKey(), role: 'assistant', content, timestamp, ...(isLoading ? { isLoading } : {}) };
}

/** A stored message of GET /api/chat/history as the panel shows it. */
export function fromHistory(view: ChatMessageView): PanelMessage {
  const parsed = Date.parse(view.createdAt);
  return {
    key: `h${view.id}`,
    role: view.role,
    content: view.content,
    timestamp: Number.isNaN(parsed) ? Date.now() : parsed,
    sessionId: view.sessionId,
    messageId: view.id,
  };
}

/** Restored history shows the conversation only: system messages stay on the server. */
export const visibleHistory = (views: readonly ChatMessageView[]) =>
  views.filter((view) => view.role !== 'system').map(fromHistory);

/**
 * Settles the loading message `key` with `patch`. Answers the new list and whether the loading message
 * was still there; when it was not, the caller decides what to append instead.
 */
export function settleLoading(
  messages: readonly PanelMessage[],
  key: string,
  patch: Partial<Omit<PanelMessage, 'key' | 'role'>>,
): { messages: PanelMessage[]; found: boolean } {
  let found = false;
  const next = messages.map((message) => {
    if (message.key !== key || !message.isLoading) return message;
    found = true;
    return { ...message, ...patch, isLoading: false };
  });
  return { messages: next, found };
}

/** Puts the server's ids on the user message the reply answers. */
export function markSent(
  messages: readonly PanelMessage[],
  key: string,
  ids: { sessionId: number; userMessageId: number },
): PanelMessage[] {
  return messages.map((message) => (message.key === key ? { ...message, ...ids } : message));
}

/**
 * The conversation for the fallback call (docs/product.md §7, §9): the last 6 settled messages, oldest first,
 * each cut to what the server accepts.
 */
export function contextMessages(
  messages: readonly PanelMessage[],
  limit: number = CHAT_LIMITS.contextMessages,
): { role: ChatRole; content: string }[] {
  return messages
    .filter((message) => !message.isLoading && message.content.trim() !== '')
    .slice(-limit)
    .map(({ role, content }) => ({ role, content: content.slice(0, CHAT_LIMITS.messageMaxChars * 4) }));
}
