// The mailer is shared with the wallet (PIN codes): @qm/platform mail.
export { createMailer, type Mailer } from '@qm/platform';
