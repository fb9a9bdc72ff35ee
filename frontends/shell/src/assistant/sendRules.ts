import { CHAT_LIMITS } from '@qm/contracts/rest';
import type { PanelMessage } from './messages';

/** Why a message is not sent (docs/product.md §5 "Chat sending"). */
export type SendBlock = 'empty' | 'busy' | 'duplicate' | 'tooSoon';

export type SendCheck = { ok: true; text: string } | { ok: false; reason: SendBlock };

export interface SendCheckInput {
  text: string;
  /** Milliseconds since the epoch. */
  now: number;
  /** A request is under way. */
  pending: boolean;
  messages: readonly Pick<PanelMessage, 'role' | 'content' | 'timestamp' | 'isLoading'>[];
}

/**
 * docs/product.md §5: an empty or whitespace-only message is not sent; sending is blocked while a request is
 * pending or a loading message exists; blocked if the same text was sent among the last 3 user
 * messages within 5 s; blocked if any user message was sent less than 1 s ago. Answers the text to
 * send (trimmed) or why not.
 */
export function checkSend({ text, now, pending, messages }: SendCheckInput): SendCheck {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, reason: 'empty' };
  if (pending || messages.some((message) => message.isLoading)) return { ok: false, reason: 'busy' };

  const sent = messages.filter((message) => message.role === 'user');
  const recent = sent.slice(-CHAT_LIMITS.duplicateLookback);
  const duplicate = recent.some(
    (message) =>
      message.content.trim() === trimmed && now - message.timestamp < CHAT_LIMITS.duplicateWindowMs,
  );
  if (duplicate) return { ok: false, reason: 'duplicate' };
  if (sent.some((message) => now - message.timestamp < CHAT_LIMITS.minGapMs))
    return { ok: false, reason: 'tooSoon' };
  return { ok: true, text: trimmed };
}
