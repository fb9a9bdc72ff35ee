import { SUPPORT_MESSAGES as MSG } from '@qm/contracts/rest';
import { ApiError } from '@qm/ui';

/** The contact schema's own messages ("Invalid email address", ...) and the rate limit's. */
const VISITOR_MESSAGES = new Set<string>(Object.values(MSG));

/**
 * The text of the contact form's failure toast: the server's message when it is one of the form's own
 * (a field the server refused, too many submissions); otherwise, e.g. for "Cross-site request refused",
 * "Internal server error" or no answer at all, a message a visitor can act on instead of the gateway's.
 */
export function submitErrorMessage(error: unknown): string {
  const message = error instanceof ApiError ? error.serverMessage : undefined;
  return message && VISITOR_MESSAGES.has(message) ? message : MSG.submitUnavailable;
}
