import { mailMessage } from '@qm/platform';

/** The wallet's emails. */
export const walletMails = {
  pinCode: (firstName: string, code: string) =>
    mailMessage('Your Quartermaster wallet PIN code', [
      `Hello ${firstName},`,
      `Your code to confirm your new wallet PIN is ${code}. It is valid for 10 minutes and can be used once.`,
      'If you did not ask to set a wallet PIN, sign in and change your password.',
    ]),
};
