import {
  CreateTopUpBody,
  formatMoney,
  acceptedPaise,
  PAYMENT_PROVIDERS,
  type PaymentOrderView,
  SANDBOX_LABEL,
  SandboxPayBody,
  VerifyPaymentBody,
  WALLET_MESSAGES,
} from '@qm/contracts/rest';

import { z } from 'zod';
import type { Api } from '../../http/api';
import { GrpcStatus, IDEMPOTENCY_409, IdempotencyHeaders, remap, type WalletContext } from './context';
import { MovedSchema, transactionToRest, walletToRest } from './rest';

/** The refusals of a card that a provider answers 402 for (Stripe: a card_error). */
const CARD_ERRORS: ReadonlySet<string> = new Set([
  WALLET_MESSAGES.cardDeclined,
  WALLET_MESSAGES.cardInsufficientFunds,
  WALLET_MESSAGES.cardExpired,
]);

export const CREDITED = 'Your wallet has been credited.';

/** Add money by card (docs/product.md §5): an order with the provider, the sandbox's checkout, the proof. */
export function registerTopUpRoutes(api: Api, { clients, limited }: WalletContext): void {
  api.route({
    method: 'post',
    path: '/api/create-order',
    tag: 'Wallet',
    summary:
      'Starts adding money (₹100 to ₹1,00,000): a payment order with the configured provider. Stripe: ' +
      `its PaymentIntent's clientSecret and the publishableKey for Stripe.js; sandbox ("${SANDBOX_LABEL}"): ` +
      'pay it with POST /api/sandbox/pay. Accepts an Idempotency-Key.',
    access: 'user',
    body: CreateTopUpBody,
    headers: IdempotencyHeaders,
    response: z.object({
      id: z.string(),
      amount: z.string(),
      currency: z.literal('INR'),
      provider: z.enum(PAYMENT_PROVIDERS),
      clientSecret: z.string().optional(),
      publishableKey: z.string().optional(),
      expiresAt: z
        .string()
        .describe('When the checkout expires unless paid (ISO 8601; TOPUP_EXPIRY_MINUTES)'),
    }) satisfies z.ZodType<PaymentOrderView>,
    errors: { 403: `"${WALLET_MESSAGES.adminNoWallet}"`, 409: IDEMPOTENCY_409 },
    async handler({ body, headers }) {
      const order = await clients.wallet.createTopUp({
        amountPaise: acceptedPaise(body.amount),
        idempotencyKey: headers['idempotency-key'] ?? '',
      });
      const view: PaymentOrderView = {
        id: order.id,
        amount: formatMoney(order.amountPaise),
        currency: 'INR',
        provider: order.provider === 'stripe' ? 'stripe' : 'sandbox',
        expiresAt: order.expiresAt,
      };
      if (order.clientSecret) view.clientSecret = order.clientSecret;
      if (order.publishableKey) view.publishableKey = order.publishableKey;
      return view;
    },
  });

  api.route({
    method: 'post',
    path: '/api/sandbox/pay',
    tag: 'Wallet',
    summary:
      `The sandbox provider's checkout ("${SANDBOX_LABEL}"), only when no Stripe keys are configured. ` +
      "Takes Stripe's test cards: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined, " +
      '4000 0000 0000 9995 has insufficient funds. Answers the signed proof for POST /api/verify-payment.',
    access: 'user',
    body: SandboxPayBody,
    before: [limited('sandboxPay')],
    response: z.object({
      providerOrderId: z.string(),
      providerPaymentId: z.string(),
      providerSignature: z.string(),
    }),
    errors: {
      400:
        `Invalid input (e.g. "${WALLET_MESSAGES.cardNumberInvalid}": a number failing the Luhn check), or ` +
        `"${WALLET_MESSAGES.paymentVerificationFailed}": an unknown order or another user's`,
      402:
        `The card was refused: "${WALLET_MESSAGES.cardDeclined}", "${WALLET_MESSAGES.cardInsufficientFunds}" ` +
        `or "${WALLET_MESSAGES.cardExpired}"`,
      409: `"${WALLET_MESSAGES.sandboxOnly}", or "${WALLET_MESSAGES.orderNotFound}" for an order that failed`,
    },
    async handler({ body }) {
      const paid = await remap(
        clients.wallet.sandboxPay({
          orderId: body.orderId,
          cardNumber: body.cardNumber,
          expiry: body.expiry,
          cvc: body.cvc,
        }),
        (code, message) =>
          code === GrpcStatus.FAILED_PRECONDITION && CARD_ERRORS.has(message) ? 402 : undefined,
      );
      return {
        providerOrderId: paid.providerOrderId,
        providerPaymentId: paid.providerPaymentId,
        providerSignature: paid.providerSignature,
      };
    },
  });

  api.route({
    method: 'post',
    path: '/api/verify-payment',
    tag: 'Wallet',
    summary:
      "The checkout's proof of payment: credits the wallet exactly once per provider payment (a replay " +
      'answers the same credit). Accepts an Idempotency-Key.',
    access: 'user',
    body: VerifyPaymentBody,
    headers: IdempotencyHeaders,
    response: MovedSchema,
    errors: {
      400: `Invalid input, or "${WALLET_MESSAGES.paymentVerificationFailed}": a bad signature, an unknown order or another user's`,
      409: IDEMPOTENCY_409,
    },
    async handler({ body, headers }) {
      const out = await clients.wallet.verifyPayment({
        providerOrderId: body.providerOrderId,
        providerPaymentId: body.providerPaymentId,
        providerSignature: body.providerSignature,
        idempotencyKey: headers['idempotency-key'] ?? '',
      });
      return {
        message: CREDITED,
        wallet: walletToRest(out.wallet!),
        transaction: transactionToRest(out.transaction!),
      };
    },
  });
}
