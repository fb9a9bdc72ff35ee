import { SUPPORT_SUBJECTS, streamOf } from '@qm/contracts/events';
import {
  type BackgroundWork,
  type ConsumerSpec,
  idempotent,
  type Logger,
  type PeriodicJob,
} from '@qm/platform';
import type { Connection } from 'mongoose';
import type { ReplyMails } from '../app/reply-mails';

export const DEFAULT_REPLY_MAIL_DURABLE = 'support-reply-mail';

/**
 * Emails each reply once its support.query.replied event is on the stream. The event reaches the
 * stream through the outbox whatever crashes, JetStream redelivers it until a send succeeds
 * (SMTP down: retried with back-off), and the claim per event id keeps a redelivery from mailing
 * twice. Only a crash between the SMTP send and the claim's completion can mail a reply twice.
 */
export function replyMailConsumer(opts: {
  conn: Connection;
  log: Logger;
  durable: string;
  mails: ReplyMails;
}): ConsumerSpec {
  return {
    stream: streamOf('support').name,
    durable: opts.durable,
    filterSubjects: [SUPPORT_SUBJECTS.replied],
    handle: idempotent(opts.conn, opts.durable, opts.log, (event) => opts.mails.send(event)),
  };
}

/** Everything the support service hears and repeats, for @qm/platform to register. */
export function supportBackground(opts: {
  conn: Connection;
  log: Logger;
  mails: ReplyMails;
  replyMailDurable: string;
  jobs: PeriodicJob[];
}): BackgroundWork {
  return {
    consumers: [replyMailConsumer({ ...opts, durable: opts.replyMailDurable })],
    jobs: opts.jobs,
  };
}
