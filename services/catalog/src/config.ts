import { z } from 'zod';
import { DEFAULT_USER_DELETED_DURABLE } from './events/identity';

/** The catalog's own environment (CONVENTIONS "Environment variables"), on top of the common service variables. */
export const catalogEnv = {
  /**
   * memory (default): lists and searches are answered from an in-memory copy of the catalogue kept
   * current by this service's writes and its replicas' change events. database: every read is a
   * query on the indexes (real MongoDB with a catalogue too large to hold in memory).
   */
  CATALOG_READ_MODEL: z.enum(['memory', 'database']).default('memory'),
  /** How often the in-memory copy is re-read in full as a safety net; 0 turns that off. */
  CATALOG_RESYNC_MS: z.coerce.number().int().min(0).default(300_000),
  /** Durable name of the identity.user.deleted consumer (tests use their own). */
  CATALOG_USER_DELETED_DURABLE: z.string().min(1).default(DEFAULT_USER_DELETED_DURABLE),
  OUTBOX_RELAY_MS: z.coerce.number().int().min(100).default(2000),
};
