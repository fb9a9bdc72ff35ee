import { setTimeout as sleep } from 'node:timers/promises';
import { activityEvent } from '@qm/contracts/events';
import { formatMoney, type PaymentProviderName, WALLET_MESSAGES } from '@qm/contracts/rest';
import { status as GrpcStatus } from '@grpc/grpc-js';
import {
  AppError,
  type Caller,
  conflict,
  forbidden,
  type Idempotency,
  invalid,
  type Faults,
  type Logger,
  type PeriodicJob,
  unavailable,
} from '@qm/platform';
import { chargeCard, type CardInput } from '../domain/cards';
import { providerAccount, userAccount } from '../domain/ledger';
import {
  creditKey,
  DEFAULT_EXPIRY_MINUTES,
  expiredReason,
  historyLineId,
  topUpDescription,
  validTopUpAmount,
} from '../domain/topups';
import { topUpCreditedEvent } from './receipts';
import type { ConfirmedPayment, PaymentProof } from '../providers/provider';
import type { Providers } from '../providers/providers';
import type { Account, AccountStore } from '../store/accounts';
import type { HistoryLine, HistoryStore, NewHistoryLine } from '../store/history';
import type { TopUp, TopUpStore } from '../store/topups';
import type { Ledger } from './ledger';
import { ownAccount, ownAccountId } from './wallets';

export interface TopUpDeps {
  accounts: AccountStore;
  history: HistoryStore;
  ledger: Ledger;
  topups: TopUpStore;
  providers: Providers;
  idempotency: Idempotency;
  log: Logger;
  /** paymentFailureRate declines that share of sandbox card payments (docs/FAULTS.md). */
  faults?: Faults;
  /** How long one caller may take to post a credit before another takes over (default 30 s). */
  creditLeaseMs?: number;
  /** A paid top-up not credited for this long (its crediter died) is credited by the sweep (default 2 min). */
  uncreditedAfterMs?: number;
  /** How often the sweep runs (default 1 min; 0 turns it off). */
  sweepEveryMs?: number;
  /** A checkout not paid within this many minutes expires (TOPUP_EXPIRY_MINUTES, default 30). */
  expiryMinutes?: number;
}

/** How long a caller waits for another one's credit of the same payment before answering "retry". */
const CREDIT_WAIT_MS = 15_000;

const verificationFailed = () => invalid(WALLET_MESSAGES.paymentVerificationFailed);

/** What the provider vouches for must be this top-up: order, amount, currency and (Stripe) metadata. */
function matches(t: TopUp, p: ConfirmedPayment): boolean {
  return (
    p.providerOrderId === t.providerOrderId &&
    (p.amount === undefined || p.amount === t.amount) &&
    (p.currency === undefined || p.currency.toUpperCase() === t.currency) &&
    (p.topUpId === undefined || p.topUpId === t._id)
  );
}

function lineOf(t: TopUp, walletId: number | undefined): NewHistoryLine {
  return {
    _id: t.lineId,
    userId: t.userId,
    amount: t.amount,
    type: 'credit',
    description: topUpDescription(t.provider),
    counterparty: '',
    transferId: '',
    transferReference: t.providerPaymentId ? creditKey(t.provider, t.providerPaymentId) : '',
    providerOrderId: t.providerOrderId,
    providerPaymentId: t.providerPaymentId ?? '',
    senderWalletId: null,
    receiverWalletId: walletId ?? null,
  };
}

/** Credits the payment the provider vouched for, once, whoever calls first; answers the top-up after. */
type Credit = (topUp: TopUp, payment: ConfirmedPayment | null) => Promise<TopUp>;

/**
 * Where page, webhook and sweep meet: the first payment id claimed on the top-up is its only
 * payment, one caller at a time posts it (a lease on the top-up, so two callers never drive the
 * same ledger transfer at once), and the ledger transfer keyed by the payment id posts it once.
 */
function createCrediting(d: TopUpDeps): Credit {
  const { accounts, history, ledger, topups } = d;
  const leaseMs = d.creditLeaseMs ?? 30_000;

  /** Posts the credit of a paid top-up (the caller holds its lease). */
  async function post(t: TopUp): Promise<TopUp> {
    const paymentId = t.providerPaymentId!;
    const key = creditKey(t.provider, paymentId);
    if (t.lineClosed === false) {
      // It failed or expired before this payment claimed it, and whoever failed it died before
      // failing its first line: failed here (the credit goes on a line of its own), or that line
      // would show money coming forever; no sweep looks at a paid top-up's first line.
      await history.close([historyLineId(t._id)], 'failed', { failureReason: t.failureReason ?? '' });
      await topups.markLineClosed(t._id);
    }
    const clearing = providerAccount(t.provider);
    const wallet = await accounts.ensure(userAccount(t.userId), t.userId, t.username);
    const line = lineOf(t, wallet.walletId);
    await history.annotate(line._id, { providerPaymentId: paymentId, transferReference: key });
    const who: Caller = { userId: t.userId, username: t.username, roles: [] };
    const rupees = formatMoney(t.amount);
    const transfer = await ledger.transfer({
      key,
      kind: 'topup',
      debit: clearing,
      credit: wallet._id,
      amount: t.amount,
      description: `Top-up ${t._id} via ${t.provider} (${paymentId})`,
      history: [line],
      announce: [
        activityEvent(who, 'wallet_add_money', `Added ₹${rupees} to wallet via ${t.provider}`),
        activityEvent(who, 'wallet_transaction', `Credit of ₹${rupees} completed (top-up ${t._id})`),
        topUpCreditedEvent({
          userId: t.userId,
          topUpId: t._id,
          amountPaise: t.amount,
          provider: t.provider,
          providerPaymentId: paymentId,
        }),
      ],
    });
    // A top-up's debit is the clearing account, which never refuses: anything short of posted
    // is a transfer another process is still driving (the sweeper finishes it).
    if (transfer.state !== 'posted') throw unavailable('Your payment is being credited. Please check again.');
    return (await topups.complete(t._id, transfer._id)) ?? (await topups.byId(t._id))!;
  }

  /** Credits the payment the provider vouched for, once, whoever calls first. */
  async function credit(topUp: TopUp, payment: ConfirmedPayment | null): Promise<TopUp> {
    if (!payment || !matches(topUp, payment)) throw verificationFailed();
    // A payment id, once claimed, is never replaced: a top-up read with one needs no claim (the
    // page's proof and the webhook both come after the checkout's own claim).
    let t = topUp.providerPaymentId
      ? topUp
      : await topups.claimPayment(topUp._id, payment.providerPaymentId, new Date());
    // Another payment already took this top-up: it is the only one it credits.
    if (!t || t.providerPaymentId !== payment.providerPaymentId) throw verificationFailed();
    const until = Date.now() + CREDIT_WAIT_MS;
    for (;;) {
      if (t.status === 'completed') return t;
      const leased = await topups.lease(t._id, leaseMs);
      if (leased) return post(leased);
      if (Date.now() > until) throw unavailable('Your payment is being credited. Please check again.');
      await sleep(50);
      t = (await topups.byId(t._id))!;
    }
  }

  return credit;
}

interface Failures {
  /** Fails the line with the top-up's reason; the sweep does it again after a crash in between. */
  closeLine(t: TopUp): Promise<void>;
  /** created → failed or expired, and its line failed; false when it was paid (or ended) first. */
  fail(t: TopUp, status: 'failed' | 'expired', reason: string): Promise<boolean>;
}

/**
 * Ends attempts that will not be paid: a declined card fails its top-up at once, an unpaid checkout
 * expires; either way its pending line fails with the reason, so it is never shown as money coming.
 */
function createFailures(d: TopUpDeps): Failures {
  const { history, topups } = d;

  /** Fails the line with the top-up's reason; the sweep does it again after a crash in between. */
  async function closeLine(t: TopUp): Promise<void> {
    await history.close([t.lineId], 'failed', { failureReason: t.failureReason ?? '' });
    await topups.markLineClosed(t._id);
  }

  /** created → failed or expired, and its line failed; false when it was paid (or ended) first. */
  async function fail(t: TopUp, status: 'failed' | 'expired', reason: string): Promise<boolean> {
    // Only the caller that moved it closes the line, and it does even if a late payment has
    // claimed the top-up since (that payment is credited on a line of its own).
    const moved = await topups.fail(t._id, status, reason);
    if (!moved) return false;
    await closeLine(moved);
    return true;
  }

  return { closeLine, fail };
}

/** Expires unpaid checkouts, finishes lines a crash left open, credits paid top-ups whose crediter died. */
function createSweep(d: TopUpDeps, credit: Credit, failures: Failures, minutes: number) {
  const { topups, log } = d;
  async function sweep(now = new Date()): Promise<{ expired: number; credited: number }> {
    let expired = 0;
    const before = new Date(now.getTime() - minutes * 60_000);
    for (const t of await topups.unpaidSince(before, 200))
      if (await failures.fail(t, 'expired', expiredReason(minutes))) expired++;
    for (const t of await topups.unclosed(200)) await failures.closeLine(t);
    let credited = 0;
    const stale = new Date(now.getTime() - (d.uncreditedAfterMs ?? 2 * 60_000));
    for (const t of await topups.uncredited(stale, 200)) {
      try {
        await credit(t, { providerOrderId: t.providerOrderId, providerPaymentId: t.providerPaymentId! });
        credited++;
      } catch (err) {
        log.warn({ err, topUp: t._id }, 'top-up sweep could not credit a paid top-up');
      }
    }
    return { expired, credited };
  }
  return sweep;
}

export interface TopUps {
  /** POST /api/create-order: opens a checkout with the active provider, once per Idempotency-Key. */
  create(
    caller: Caller | undefined,
    req: { amountPaise: number; idempotencyKey: string },
  ): Promise<{
    /** The provider's order id. */
    id: string;
    amountPaise: number;
    currency: 'INR';
    provider: PaymentProviderName;
    /** Stripe only: what Stripe.js needs in the browser. */
    clientSecret: string;
    publishableKey: string;
    /** ISO 8601: when the checkout expires unless paid (its start plus TOPUP_EXPIRY_MINUTES). */
    expiresAt: string;
  }>;
  /** POST /api/sandbox/pay. Paying a paid order again answers the same payment. */
  sandboxPay(caller: Caller | undefined, req: { orderId: string } & CardInput): Promise<PaymentProof>;
  /** POST /api/verify-payment: the wallet after and the user's line of the top-up. */
  verifyPayment(
    caller: Caller | undefined,
    req: PaymentProof & { idempotencyKey: string },
  ): Promise<{ account: Account; line: HistoryLine }>;
  /** A provider's webhook as received; its signature is the only authority. */
  handleWebhook(req: { provider: string; payload: Buffer; signature: string }): Promise<{ handled: boolean }>;
  /** Expires unpaid checkouts, finishes lines a crash left open, credits paid top-ups whose crediter died. */
  sweep(now?: Date): Promise<{ expired: number; credited: number }>;
  /** For the service to register: the sandbox's webhook deliveries and the top-up sweep. */
  jobs: PeriodicJob[];
}

/**
 * Card top-ups (docs/adr/007): the checkout's order, the sandbox's card charge, the page's proof and
 * the provider's webhook, all crediting through `createCrediting` — exactly once whatever arrives
 * first and whatever is replayed.
 */
export function createTopUps(d: TopUpDeps): TopUps {
  const { accounts, history, topups, providers, log } = d;
  const credit = createCrediting(d);
  const failures = createFailures(d);
  const expiryMinutes = d.expiryMinutes ?? DEFAULT_EXPIRY_MINUTES;
  const sweep = createSweep(d, credit, failures, expiryMinutes);

  async function open(caller: Caller, amountPaise: number) {
    const amount = validTopUpAmount(amountPaise);
    const account = await ownAccount(accounts, caller);
    // No new checkout for a deleted user's wallet; one already paid is still credited (ADR 007).
    if (!account.isActive) throw forbidden(WALLET_MESSAGES.accountClosed);
    const provider = providers.active;
    const id = await topups.nextId();
    const order = await provider.createOrder({ id, userId: caller.userId, amount });
    const now = new Date();
    const topUp = await topups.insert(
      {
        _id: id,
        userId: caller.userId,
        username: caller.username,
        amount,
        currency: 'INR',
        provider: provider.name,
        providerOrderId: order.providerOrderId,
        lineId: historyLineId(id),
      },
      now,
    );
    // The top-up's id is new, so its line is too: written and numbered at once, without a lookup.
    await history.openNew([lineOf(topUp, account.walletId)], now);
    return {
      id: order.providerOrderId,
      amountPaise: amount,
      currency: 'INR' as const,
      provider: provider.name,
      clientSecret: order.clientSecret,
      publishableKey: order.publishableKey,
      expiresAt: new Date(now.getTime() + expiryMinutes * 60_000).toISOString(),
    };
  }

  async function verify(caller: Caller, proof: PaymentProof) {
    const walletId = ownAccountId(caller);
    const topUp = await topups.byProviderOrderId(proof.providerOrderId);
    // Someone else's order is as unknown as no order: nothing about it is revealed.
    if (!topUp || topUp.userId !== caller.userId) throw verificationFailed();
    const provider = providers.byName(topUp.provider);
    if (!provider) throw verificationFailed();
    const done = await credit(topUp, await provider.confirm(proof));
    // The checkout opened the wallet and the credit went to it: it is read once, after (opened
    // here only if something removed it in between).
    const [account, line] = await Promise.all([accounts.get(walletId), history.byKey(done.lineId)]);
    return { account: account ?? (await ownAccount(accounts, caller)), line: line! };
  }

  /** The sandbox's checkout: charges a test card and answers the signed proof, recording its webhook first. */
  async function pay(caller: Caller, orderId: string, card: CardInput) {
    if (providers.active.name !== 'sandbox') throw conflict(WALLET_MESSAGES.sandboxOnly);
    const topUp = await topups.byProviderOrderId(orderId);
    if (!topUp || topUp.userId !== caller.userId || topUp.provider !== 'sandbox') throw verificationFailed();
    let paymentId = topUp.providerPaymentId;
    if (!paymentId) {
      if (topUp.status === 'expired') throw conflict(WALLET_MESSAGES.checkoutExpired);
      try {
        chargeCard(card, new Date());
        if (await d.faults?.chance('paymentFailureRate')) throw conflict(WALLET_MESSAGES.cardDeclined);
      } catch (err) {
        // The bank's refusal (not a mistyped card) fails the attempt at once, in its words; another
        // card may still pay this checkout, credited on a new line.
        if (err instanceof AppError && err.code === GrpcStatus.FAILED_PRECONDITION)
          await failures.fail(topUp, 'failed', err.message);
        throw err;
      }
      const after = await topups.claimPayment(topUp._id, providers.sandbox.newPaymentId(), new Date());
      paymentId = after!.providerPaymentId!;
    }
    // Recorded before answering (and again on a repeat, in case a crash came in between).
    await providers.deliveries.record(paymentId, providers.sandbox.webhookFor(orderId, paymentId));
    return {
      providerOrderId: orderId,
      providerPaymentId: paymentId,
      providerSignature: providers.sandbox.sign(orderId, paymentId),
    };
  }

  return {
    create(caller: Caller | undefined, req: { amountPaise: number; idempotencyKey: string }) {
      if (!caller) throw forbidden(WALLET_MESSAGES.forbidden);
      return d.idempotency.run(
        `create-order:${caller.userId}`,
        req.idempotencyKey || undefined,
        { amount: req.amountPaise },
        () => open(caller, req.amountPaise),
      );
    },

    async sandboxPay(caller: Caller | undefined, req: { orderId: string } & CardInput) {
      if (!caller) throw forbidden(WALLET_MESSAGES.forbidden);
      return pay(caller, req.orderId.trim(), req);
    },

    verifyPayment(caller: Caller | undefined, req: PaymentProof & { idempotencyKey: string }) {
      if (!caller) throw forbidden(WALLET_MESSAGES.forbidden);
      const proof = {
        providerOrderId: req.providerOrderId.trim(),
        providerPaymentId: req.providerPaymentId.trim(),
        providerSignature: req.providerSignature,
      };
      return d.idempotency.run(
        `verify-payment:${caller.userId}`,
        req.idempotencyKey || undefined,
        proof,
        () => verify(caller, proof),
      );
    },

    async handleWebhook(req: { provider: string; payload: Buffer; signature: string }) {
      const provider = providers.byName(req.provider);
      if (!provider) throw invalid('Unknown payment provider');
      const event = provider.webhook(req.payload, req.signature);
      if (!event) return { handled: false };
      const payment = 'paid' in event ? event.paid : event.failed;
      const topUp =
        (await topups.byProviderOrderId(payment.providerOrderId)) ??
        (payment.topUpId === undefined ? null : await topups.byId(payment.topUpId));
      if (!topUp || topUp.provider !== provider.name) {
        log.warn(
          { provider: provider.name, order: payment.providerOrderId },
          'webhook for an unknown top-up',
        );
        return { handled: false };
      }
      if ('failed' in event) await failures.fail(topUp, 'failed', event.failed.reason);
      else await credit(topUp, event.paid);
      return { handled: true };
    },

    sweep,

    jobs: [
      providers.deliveries.job,
      { name: 'topup-sweep', everyMs: d.sweepEveryMs ?? 60_000, run: () => sweep() },
    ] satisfies PeriodicJob[],
  };
}
