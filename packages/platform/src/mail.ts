import nodemailer from 'nodemailer';
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

/** SMTP through nodemailer (maildev locally: smtp://127.0.0.1:1025). */
export function createMailer(opts: { smtpUrl: string; from: string; log: Logger; faults?: Faults }): Mailer {
  const transport = nodemailer.createTransport(opts.smtpUrl, {
    connectionTimeout: 5000,
    greetingTimeout: 5000,
    socketTimeout: 10000,
  } as never);
  return {
    async send(to, message) {
      if (await opts.faults?.on('emailFailure'))
        throw new Error('SMTP refused the message (fault flag emailFailure)');
      await transport.sendMail({
        from: opts.from,
        to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
      opts.log.info({ subject: message.subject }, 'mail sent');
    },
    close: () => transport.close(),
  };
}
