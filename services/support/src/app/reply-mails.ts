import type { EventEnvelope, Logger, Mailer } from '@qm/platform';
import { z } from 'zod';
import { replyOf } from '../domain/query';
import { supportMails } from '../mail/templates';
import type { QueryStore } from '../store/queries';

const Replied = z.object({ queryId: z.number().int().positive() });

/**
 * Emails a reply to its query's address. The text is read from the query (the event carries ids
 * only, so no address or message sits on the stream).
 */
export interface ReplyMails {
  /**
   * Mails the reply a support.query.replied event names. Throws when the mail could not be sent,
   * so the event is delivered again later.
   */
  send(event: EventEnvelope): Promise<void>;
}

export function createReplyMails(d: { queries: QueryStore; mailer: Mailer; log: Logger }): ReplyMails {
  return {
    async send(event: EventEnvelope): Promise<void> {
      const parsed = Replied.safeParse(event.data);
      if (!parsed.success) {
        d.log.error(
          { eventId: event.id, issues: parsed.error.issues },
          'malformed support.query.replied ignored',
        );
        return;
      }
      const query = await d.queries.get(parsed.data.queryId);
      const reply = query && replyOf(query, event.id);
      if (!query || !reply) {
        // The outbox publishes a reply's event only once the reply is on its query.
        d.log.error({ eventId: event.id, queryId: parsed.data.queryId }, 'reply not found; no mail sent');
        return;
      }
      await d.mailer.send(
        query.email,
        supportMails.reply(query, reply.response, reply.status === 'resolved'),
      );
      d.log.info({ queryId: query.id, replyId: reply.id, status: reply.status }, 'reply mailed');
    },
  };
}
