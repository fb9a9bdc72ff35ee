import nodemailer from 'nodemailer';
import type { Logger } from '@qm/platform';
import type { MailMessage } from './templates';

export interface Mailer {
  send(to: string, message: MailMessage): Promise<void>;
  close(): void;
}

/** SMTP through nodemailer (maildev locally: smtp://127.0.0.1:1025). */
export function createMailer(opts: { smtpUrl: string; from: string; log: Logger }): Mailer {
  const transport = nodemailer.createTransport(opts.smtpUrl, {
    connectionTimeout: 5000,
    greetingTimeout: 5000,
    socketTimeout: 10000,
  } as never);
  return {
    async send(to, message) {
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
