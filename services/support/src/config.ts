import { z } from 'zod';
import { DEFAULT_REPLY_MAIL_DURABLE } from './events/consumers';

/** The support service's own environment (CONVENTIONS "Environment variables"), on top of the common service variables. */
export const supportEnv = {
  SMTP_URL: z.string().min(1).default('smtp://127.0.0.1:1025'),
  MAIL_FROM: z.string().min(1).default('Quartermaster Support <support@quartermaster.local>'),
  OUTBOX_RELAY_MS: z.coerce.number().int().min(100).default(2000),
  /**
   * A reply's event still unpublished after this long is taken to belong to a process that died
   * between writing it and its status change; the relay then asks the query whether the reply landed.
   */
  OUTBOX_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  /** Durable name of the consumer that emails replies (tests use their own). */
  SUPPORT_REPLY_MAIL_DURABLE: z.string().min(1).default(DEFAULT_REPLY_MAIL_DURABLE),
};
