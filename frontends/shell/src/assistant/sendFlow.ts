import { CHAT_MESSAGES, type ChatReply, type ChatRole } from '@qm/contracts/rest';
import { ApiError } from '@qm/ui';
import { assistantMessage, markSent, settleLoading, type PanelMessage } from './messages';
import { ASSISTANT_TEXTS } from './texts';

/** The calls one send makes (injected, so the flow can be tested without a server). */
export interface SendCalls {
  send: (message: string, sessionId: number | null) => Promise<ChatReply>;
  fallback: (query: string, messages: { role: ChatRole; content: string }[]) => Promise<{ response: string }>;
}

/** How one send ended; the panel turns it into its loading message's text and maybe a toast. */
export type SendOutcome =
  | { kind: 'reply'; reply: ChatReply }
  | { kind: 'fallback'; response: string }
  /** The server refused the message with a clear reason (400, 429): shown as the answer, no toast. */
  | { kind: 'refused'; message: string }
  /** Neither the chat call nor the fallback answered: the text, plus the Connection Error toast. */
  | { kind: 'failed'; text: string };

/** A refusal the user can act on: bad input (400) or too many messages (429). */
function refusal(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  if (error.status === 429) return error.serverMessage ?? CHAT_MESSAGES.tooMany;
  if (error.status === 400) return error.serverMessage ?? CHAT_MESSAGES.empty;
  return undefined;
}

/** The chat call; a session that is gone (deleted from another tab) is replaced by a new one. */
async function sendToSession(calls: SendCalls, message: string, sessionId: number | null) {
  try {
    return await calls.send(message, sessionId);
  } catch (error) {
    if (sessionId === null || !(error instanceof ApiError) || error.status !== 404) throw error;
    return calls.send(message, null);
  }
}

/**
 * One send (docs/product.md §7, §8). The chat call first; when it fails for any reason but a refusal, the fallback
 * POST /api/ai/chat with the last 6 messages, whose answer is shown as the reply (no error).
 *
 * Our reading of docs/product.md §8's two failure texts, both shown only when the fallback fails as well:
 * - "Chat call error": the server answered the chat call with an error (5xx, 401, ...) →
 *   ASSISTANT_TEXTS.chatCallError ("Sorry, I'm having trouble connecting right now. ...").
 * - "Send failure": the message could not be delivered at all (network error, no or unreadable
 *   answer) → ASSISTANT_TEXTS.sendFailure ("I'm having trouble connecting to the AI service. ...").
 * Both replace the loading message and come with the "Connection Error" toast; if the loading message
 * is gone by then, the panel adds ASSISTANT_TEXTS.sendFailureNoLoading instead (see useChat).
 */
export async function deliver(
  calls: SendCalls,
  message: string,
  sessionId: number | null,
  context: { role: ChatRole; content: string }[],
): Promise<SendOutcome> {
  try {
    return { kind: 'reply', reply: await sendToSession(calls, message, sessionId) };
  } catch (error) {
    const refused = refusal(error);
    if (refused !== undefined) return { kind: 'refused', message: refused };
    try {
      const { response } = await calls.fallback(message, context);
      return { kind: 'fallback', response };
    } catch {
      const answered = error instanceof ApiError;
      return { kind: 'failed', text: answered ? ASSISTANT_TEXTS.chatCallError : ASSISTANT_TEXTS.sendFailure };
    }
  }
}

/** The loading message's new text for an outcome. */
export function outcomeText(outcome: SendOutcome): string {
  switch (outcome.kind) {
    case 'reply':
      return outcome.reply.response;
    case 'fallback':
      return outcome.response;
    case 'refused':
      return outcome.message;
    case 'failed':
      return outcome.text;
  }
}

/**
 * The messages once a send has ended: the loading message becomes the outcome's text (with the
 * server's ids on it and on the question, for a reply). Should the loading message be gone, the text
 * is added as a new assistant message, and a failure reads ASSISTANT_TEXTS.sendFailureNoLoading.
 */
export function applyOutcome(
  messages: readonly PanelMessage[],
  keys: { loadingKey: string; userKey: string },
  outcome: SendOutcome,
  now: number,
): PanelMessage[] {
  const text = outcomeText(outcome);
  const reply = outcome.kind === 'reply' ? outcome.reply : undefined;
  const ids = reply
    ? { sessionId: reply.sessionId, messageId: reply.messageId, userMessageId: reply.userMessageId }
    : {};
  const { messages: next, found } = settleLoading(messages, keys.loadingKey, {
    content: text,
    timestamp: now,
    ...ids,
  });
  const withIds = reply
    ? markSent(next, keys.userKey, { sessionId: reply.sessionId, userMessageId: reply.userMessageId })
    : next;
  if (found) return withIds;
  const missing = outcome.kind === 'failed' ? ASSISTANT_TEXTS.sendFailureNoLoading : text;
  return [...withIds, assistantMessage(missing, now)];
}
