import nodemailer from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import { parseConnectionUrl } from 'nodemailer/lib/shared';
import type { Faults } from './faults';
import type { Logger } from './logger';

/** An email of the product: plain text and the same as HTML. */
export interface MailMessage {
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(to: string, message: MailMessage): Promise<void>;
  close(): void;
}

/** Text as HTML shows it: the five characters markup could read, as entities. */
export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A message from paragraphs of text, signed by Quartermaster. */
export function mailMessage(subject: string, paragraphs: string[]): MailMessage {
  return {
    subject,
    text: `${paragraphs.join('\n\n')}\n\n— Quartermaster`,
    html: `${paragraphs.map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`).join('')}<p>— Quartermaster</p>`,
  };
}

/**
 * SMTP through nodemailer (maildev locally: smtp://127.0.0.1:1025), over pooled connections: a new
 * connection per mail cost its handshake, greeting and DNS lookup each time. Each message is
 * composed first and handed over as one piece: streamed from the composer, its MIME parts went out
 * in about twenty socket writes, and a write is dear on this machine (docs/performance).
 */
export function createMailer(opts: { smtpUrl: string; from: string; log: Logger; faults?: Faults }): Mailer {
  // nodemailer reads nothing beside a URL given as `url` (nor, as a second argument, which is the
  // messages' defaults): the URL's options and ours in one object.
  const transport = nodemailer.createTransport({
    ...parseConnectionUrl(opts.smtpUrl),
    pool: true,
    connectionTimeout: 5000,
    greetingTimeout: 5000,
    socketTimeout: 10000,
  });
  return {
    async send(to, message) {
      if (await opts.faults?.on('emailFailure'))
        throw new Error('SMTP refused the message (fault flag emailFailure)');
      const mime = new MailComposer({
        from: opts.from,
        to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      }).compile();
      const envelope = mime.getEnvelope();
      await transport.sendMail({ envelope, raw: await mime.build() });
      opts.log.info({ subject: message.subject }, 'mail sent');
    },
    close: () => transport.close(),
  };
}
