import { mailMessage } from '@qm/platform';

/** The wallet's emails. */
export const walletMails = {
  pinCode: (firstName: string, code: string) =>
    mailMessage('Your Quartermaster wallet PIN code', [
      `Hello ${firstName},`,
      `Your code to confirm your new wallet PIN is ${code}. It is valid for 10 minutes and can be used once.`,
      'If you did not ask to set a wallet PIN, sign in and change your password.',
    ]),
  topUpReceipt: (r: {
    firstName: string;
    topUpId: number;
    amount: string;
    provider: string;
    reference: string;
    creditedAt: string;
    balance: string;
  }) =>
    mailMessage(`Receipt: ${r.amount} added to your Quartermaster wallet`, [
      `Hello ${r.firstName},`,
      `${r.amount} has been added to your wallet.`,
      [
        `Top-up: #${r.topUpId}`,
        `Amount: ${r.amount}`,
        `Paid with: ${r.provider}`,
        `Payment reference: ${r.reference}`,
        `Credited: ${r.creditedAt}`,
        `Wallet balance now: ${r.balance}`,
      ].join('\n'),
      'You can see this top-up under Transaction History in your wallet. If you did not add this money, tell us through the Contact page.',
    ]),
};
