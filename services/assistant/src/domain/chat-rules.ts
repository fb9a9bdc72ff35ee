import { CHAT_LIMITS, CHAT_MESSAGES } from '@qm/contracts/rest';
import { invalid } from '@qm/platform';

/** docs/product.md §5: an empty or whitespace-only message is not sent; the gateway checks the same first. */
export function validQuestion(text: string): string {
  const q = text.trim();
  if (!q) throw invalid(CHAT_MESSAGES.empty);
  if (q.length > CHAT_LIMITS.messageMaxChars) throw invalid(CHAT_MESSAGES.tooLong);
  return q;
}

export const SESSION_NAME_MAX = 60;

/**
 * The one thing the chat does besides answering: naming the conversation ("rename this chat to
 * Rifle order", "call this chat Spares"). The name, or undefined when the text asks something else.
 */
export function renameRequest(text: string): string | undefined {
  const m =
    /^\s*(?:please\s+)?(?:rename|call|name)\s+(?:this|the|my)\s+(?:chat|conversation|session)\s+(?:to\s+|as\s+)?["“']?(.+?)["”']?\s*[.!]?\s*$/i.exec(
      text,
    );
  const name = m?.[1]?.replace(/\s+/g, ' ').trim();
  return name ? name.slice(0, SESSION_NAME_MAX) : undefined;
}

/** docs/product.md §3 "AI context" productInterests: the types the caller bought most, most first. */
export function productInterests(types: string[]): string[] {
  const counts = new Map<string, number>();
  for (const t of types) if (t) counts.set(t, (counts.get(t) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([t]) => t);
}
