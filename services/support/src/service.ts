import { createMailer, createOutbox, type ServiceDefinition } from '@qm/platform';
import { serviceDefaults } from '@qm/roster';
import { createQueries } from './app/queries';
import { createReplyMails } from './app/reply-mails';
import { supportEnv } from './config';
import { supportBackground } from './events/consumers';
import { confirmer } from './events/support-events';
import { addSupportService } from './server';
import { createQueryStore } from './store/queries';

export { supportEnv } from './config';

/** The support service (port and database: @qm/roster): docs/product.md §3 user_queries and §4 query status. */
export const supportService: ServiceDefinition<typeof supportEnv> = {
  ...serviceDefaults('support'),
  env: supportEnv,
  async setup({ config, log, conn, bus, grpc, faults }) {
    const queries = createQueryStore(conn);
    const outbox = createOutbox({
      conn,
      bus,
      log,
      confirm: confirmer(queries),
      intervalMs: config.OUTBOX_RELAY_MS,
      graceMs: config.OUTBOX_GRACE_MS,
    });
    outbox.start();
    const mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, log, faults });
    addSupportService(grpc, { queries: createQueries({ queries, outbox }) });
    return {
      ...supportBackground({
        conn,
        log,
        mails: createReplyMails({ queries, mailer, log }),
        replyMailDurable: config.SUPPORT_REPLY_MAIL_DURABLE,
        jobs: [],
      }),
      stop: async () => {
        await outbox.stop();
        mailer.close();
      },
    };
  },
};
