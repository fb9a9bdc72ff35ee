import { z } from 'zod';
import {
  DEFAULT_CONFIRMATION_DURABLE,
  DEFAULT_REFUND_MAIL_DURABLE_PREFIX,
  DEFAULT_SALE_NOTICE_DURABLE,
} from './events/consumers';

/** The orders service's own environment (CONVENTIONS "Environment variables"), on top of the common service variables. */
export const ordersEnv = {
  /** Buyers' and sellers' details and approval are read from identity (LookupUser). */
  IDENTITY_GRPC_ADDR: z.string().min(1).default('127.0.0.1:50051'),
  /** Products and their stock reservations. */
  CATALOG_GRPC_ADDR: z.string().min(1).default('127.0.0.1:50052'),
  /** The buyer's hold and its posting or voiding. */
  WALLET_GRPC_ADDR: z.string().min(1).default('127.0.0.1:50053'),
  /**
   * How long a purchase may take: the reservation's lifetime in catalog. An order still pending after
   * this is cancelled by the sweeper (unless already paid).
   */
  ORDERS_HOLD_TIMEOUT_SECONDS: z.coerce.number().int().min(10).max(86_400).default(120),
  /**
   * How long after a purchase its buyer may ask for a refund; the sale's proceeds wait in escrow
   * until then (docs/adr/028). Counted from the purchase's deadline, which its payment always
   * precedes, so a buyer has at least this long after completion. Fractions allowed (tests use seconds).
   */
  REFUND_WINDOW_HOURS: z.coerce
    .number()
    .min(0)
    .max(24 * 90)
    .default(48),
  /** Deadline of each call to catalog, wallet and identity. */
  ORDERS_CALL_DEADLINE_MS: z.coerce.number().int().min(100).default(5000),
  /** How often the sweeper looks for orders left mid-saga; 0 turns it off. */
  ORDERS_SWEEP_INTERVAL_MS: z.coerce.number().int().min(0).default(5000),
  /**
   * A pending order untouched this long is taken to be abandoned by its process and resumed by the
   * sweeper. Longer than a call's deadline, so a step still in flight is never raced.
   */
  ORDERS_SWEEP_GRACE_MS: z.coerce.number().int().min(0).default(15_000),
  OUTBOX_RELAY_MS: z.coerce.number().int().min(100).default(2000),
  /** The order confirmation to the buyer and the sale notice to the seller (docs/adr/012). */
  SMTP_URL: z.string().min(1).default('smtp://127.0.0.1:1025'),
  MAIL_FROM: z.string().min(1).default('Quartermaster <no-reply@quartermaster.local>'),
  /** Durable names of the orders.order.completed consumers that mail them (tests use their own). */
  ORDERS_CONFIRMATION_DURABLE: z.string().min(1).default(DEFAULT_CONFIRMATION_DURABLE),
  ORDERS_SALE_NOTICE_DURABLE: z.string().min(1).default(DEFAULT_SALE_NOTICE_DURABLE),
  /** The refund mails' durables: this + -request-mail, -buyer-mail, -seller-mail. */
  ORDERS_REFUND_MAIL_DURABLE_PREFIX: z.string().min(1).default(DEFAULT_REFUND_MAIL_DURABLE_PREFIX),
  /** Where a refund request is announced: the administrators' address (identity's ADMIN_EMAIL). */
  REFUND_REQUESTS_MAIL_TO: z.email().default('admin@quartermaster.local'),
  /**
   * Test-only: a pause between the reservation and the payment, so a test can delete the product or
   * stop a process mid-saga.
   * Refused in production.
   */
  ORDERS_PAUSE_BEFORE_PAYMENT_MS: z.coerce.number().int().min(0).default(0),
};
