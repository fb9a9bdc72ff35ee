import { SetupPinBody, VerifyPinOtpBody, WALLET_MESSAGES } from '@qm/contracts/rest';
import { z } from 'zod';
import type { Api } from '../../http/api';
import type { WalletContext } from './context';

const MessageSchema = z.object({ message: z.string() });

/** The transfer PIN (docs/product.md §5): chosen, then confirmed with a code emailed to the user. */
export function registerPinRoutes(api: Api, { clients, limited }: WalletContext): void {
  api.route({
    method: 'get',
    path: '/api/wallet/pin-status',
    tag: 'Wallet',
    summary: 'Whether the caller has a transfer PIN.',
    access: 'user',
    response: z.object({ isPinSetup: z.boolean() }),
    errors: { 403: `"${WALLET_MESSAGES.adminNoWallet}"` },
    async handler() {
      const { isPinSetup } = await clients.wallet.getPinStatus({});
      return { isPinSetup };
    },
  });

  api.route({
    method: 'post',
    path: '/api/wallet/setup-pin',
    tag: 'Wallet',
    summary:
      'Records the PIN the caller chose (at least 6 characters, confirmPin equal); it takes effect once ' +
      'the emailed code is verified (send-otp, then verify-otp).',
    access: 'user',
    body: SetupPinBody,
    response: MessageSchema,
    errors: { 403: `"${WALLET_MESSAGES.adminNoWallet}"` },
    async handler({ body }) {
      const { message } = await clients.wallet.setupPin({ pin: body.pin, confirmPin: body.confirmPin });
      return { message };
    },
  });

  api.route({
    method: 'post',
    path: '/api/wallet/send-otp',
    tag: 'Wallet',
    summary:
      "Emails a 6-digit code to the caller's address (single use, valid 10 minutes, 5 tries) to confirm " +
      'the PIN recorded by setup-pin.',
    access: 'user',
    before: [limited('sendOtp')],
    response: MessageSchema,
    errors: {
      403: `"${WALLET_MESSAGES.adminNoWallet}"`,
      409: 'No PIN was recorded with setup-pin first, or no email address is registered',
      429: 'Too many codes requested, or a new code asked for too soon after the last',
    },
    async handler() {
      const { message } = await clients.wallet.sendPinOtp({});
      return { message };
    },
  });

  api.route({
    method: 'post',
    path: '/api/wallet/verify-otp',
    tag: 'Wallet',
    summary: 'Confirms the recorded PIN with the emailed code; the PIN then guards transfers.',
    access: 'user',
    body: VerifyPinOtpBody,
    before: [limited('verifyOtp')],
    response: MessageSchema,
    errors: {
      400: 'Invalid input, or a wrong, used or expired code',
      403: `"${WALLET_MESSAGES.adminNoWallet}"`,
      409: 'No PIN was recorded with setup-pin first',
      429: 'Too many requests, or the code ran out of tries (ask for a new one)',
    },
    async handler({ body }) {
      const { message } = await clients.wallet.verifyPinOtp({ otp: body.otp });
      return { message };
    },
  });
}
