import { EligibilityParams, acceptedPaise, TransferBody, WALLET_MESSAGES } from '@qm/contracts/rest';

import { z } from 'zod';
import type { Api } from '../../http/api';
import { GrpcStatus, IDEMPOTENCY_409, IdempotencyHeaders, remap, type WalletContext } from './context';
import { MovedSchema, transactionToRest, walletToRest } from './rest';

/** Money to another user (docs/product.md §5 Transfer): who can receive it, and the transfer itself. */
export function registerTransferRoutes(api: Api, { clients, limited }: WalletContext): void {
  api.route({
    method: 'get',
    path: '/api/check-username-eligibility/:username',
    tag: 'Wallet',
    summary:
      'Whether money can be sent to username: another existing, approved, non-admin user. Otherwise ' +
      'eligible is false and message says why.',
    access: 'user',
    params: EligibilityParams,
    before: [limited('eligibility')],
    response: z.object({ eligible: z.boolean(), message: z.string() }),
    async handler({ params }) {
      const { eligible, message } = await clients.wallet.checkEligibility({ username: params.username });
      return { eligible, message };
    },
  });

  api.route({
    method: 'post',
    path: '/api/wallet/transfer',
    tag: 'Wallet',
    summary:
      'Sends an amount (rupees, at most two decimals, at most the available balance) to another user with ' +
      'the PIN. Five wrong PINs lock transfers for 15 minutes (423). Accepts an Idempotency-Key.',
    access: 'user',
    body: TransferBody,
    headers: IdempotencyHeaders,
    response: MovedSchema,
    errors: {
      400: `Invalid input, "${WALLET_MESSAGES.notEligible}", or a wrong PIN ("Incorrect PIN. N attempts left.")`,
      403: `"${WALLET_MESSAGES.adminNoWallet}", or "${WALLET_MESSAGES.accountClosed}" (the user was deleted)`,
      409: `"${WALLET_MESSAGES.insufficientBalance}", "${WALLET_MESSAGES.pinSetupFirst}"; or: ${IDEMPOTENCY_409}`,
      423: 'Too many incorrect PINs: transfers are locked; the message says until when',
    },
    async handler({ body, headers }) {
      const out = await remap(
        clients.wallet.transfer({
          receiverUsername: body.receiverUsername,
          amountPaise: acceptedPaise(body.amount),
          pin: body.pin,
          idempotencyKey: headers['idempotency-key'] ?? '',
        }),
        (code) => (code === GrpcStatus.RESOURCE_EXHAUSTED ? 423 : undefined),
      );
      return {
        message: out.message || WALLET_MESSAGES.transferred,
        wallet: walletToRest(out.wallet!),
        transaction: transactionToRest(out.transaction!),
      };
    },
  });
}
