import { z } from 'zod';
import {
  DEFAULT_TOPUP_RECEIPT_DURABLE,
  DEFAULT_USER_APPROVED_DURABLE,
  DEFAULT_USER_CLOSED_DURABLE,
} from './events/consumers';
import { topUpEnv } from './providers/config';

/** The wallet's own environment (CONVENTIONS "Environment variables"), on top of the common service variables. */
export const walletEnv = {
  ...topUpEnv,
  /** The identity service (transfer receivers and PIN code recipients are looked up there). */
  IDENTITY_GRPC_ADDR: z.string().min(1).default('127.0.0.1:50051'),
  SMTP_URL: z.string().min(1).default('smtp://127.0.0.1:1025'),
  MAIL_FROM: z.string().min(1).default('Quartermaster <no-reply@quartermaster.local>'),
  /** Durable name of the identity.user.approved consumer (tests use their own). */
  WALLET_USER_APPROVED_DURABLE: z.string().min(1).default(DEFAULT_USER_APPROVED_DURABLE),
  /** Durable name of the identity.user.deleted / rejected consumer that closes wallets (tests use their own). */
  WALLET_USER_CLOSED_DURABLE: z.string().min(1).default(DEFAULT_USER_CLOSED_DURABLE),
  /** Durable name of the wallet.topup.credited consumer that mails receipts (tests use their own). */
  WALLET_TOPUP_RECEIPT_DURABLE: z.string().min(1).default(DEFAULT_TOPUP_RECEIPT_DURABLE),
  OUTBOX_RELAY_MS: z.coerce.number().int().min(100).default(2000),
  /** How long a purchase's hold lasts when the orders service does not say. */
  HOLD_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  /**
   * How long a sale's proceeds stay in escrow before the seller can spend them: the window in which
   * the buyer may ask for a refund (docs/adr/028). Fractions are allowed (tests use seconds).
   */
  REFUND_WINDOW_HOURS: z.coerce
    .number()
    .min(0)
    .max(24 * 90)
    .default(48),
  /** How often the sweeper looks for unsettled transfers, expired holds and proceeds due; 0 turns it off. */
  SWEEP_INTERVAL_MS: z.coerce.number().int().min(0).default(5000),
  /** A transfer untouched this long is taken to be abandoned by its process and finished by the sweeper. */
  SWEEP_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  /**
   * How far apart the clocks of the wallet's processes and its database may be. A step driven from a
   * copy of its transfer older than a clearing of its account's markers, by more than this, is fenced
   * off and its transfer read again (docs/adr/006, "a fence instead of a deadline").
   */
  CLOCK_SKEW_MS: z.coerce.number().int().min(0).max(60_000).default(2_000),
  /**
   * How long a settled transfer's markers stay on the accounts: a step driven from a copy of its
   * transfer older than this (less CLOCK_SKEW_MS) is fenced and reads the transfer again, so it costs
   * a read, never a second movement. Each marker makes every update of its account larger, so a short
   * time keeps a hot account small (docs/adr/006).
   */
  MARKER_RETENTION_MS: z.coerce.number().int().min(5_000).default(15_000),
  /**
   * Test-only fault injection: `after-debit` kills the process (SIGKILL) right after a transfer's
   * debit and before its credit, so the kill test can prove the sweeper finishes it. Refused in production.
   */
  WALLET_FAULT: z.enum(['', 'after-debit']).default(''),
};
