import { mailMessage } from '@qm/platform';

/** The support service's emails. */
export const supportMails = {
  /** An administrator's reply to a contact-form query. */
  reply: (q: { fullName: string; subject: string; message: string }, response: string, resolved: boolean) =>
    mailMessage(`Re: ${q.subject}`, [
      `Hello ${q.fullName},`,
      response,
      resolved
        ? 'We have marked your query as resolved. If you need anything else, reply through the contact form.'
        : 'We are working on your query and will write again when it is resolved.',
      `Your message:\n${q.message}`,
    ]),
};
