import { IDENTITY_SUBJECTS, streamOf } from '@qm/contracts/events';
import { type ConsumerSpec, idempotent, type Logger } from '@qm/platform';
import type { Connection } from 'mongoose';
import { z } from 'zod';

const USER_DELETED = IDENTITY_SUBJECTS.deleted;
export const DEFAULT_USER_DELETED_DURABLE = 'catalog-user-deleted';

const UserDeleted = z.object({
  userId: z.number().int().positive(),
  username: z.string().optional(),
  role: z.string().optional(),
});

/**
 * docs/product.md §3: a product's manufacturer is "deleted with the user". When identity announces a deleted
 * account, that account's products go, once per event however often it is delivered.
 */
export function userDeletedConsumer(opts: {
  conn: Connection;
  log: Logger;
  durable: string;
  removeProductsOf(userId: number): Promise<number>;
}): ConsumerSpec {
  const { conn, log, durable } = opts;
  return {
    stream: streamOf('identity').name,
    durable,
    filterSubjects: [USER_DELETED],
    handle: idempotent(conn, durable, log, async (event) => {
      const parsed = UserDeleted.safeParse(event.data);
      if (!parsed.success) {
        // Retrying cannot make it valid: record and move on.
        log.error(
          { eventId: event.id, issues: parsed.error.issues },
          'malformed identity.user.deleted ignored',
        );
        return;
      }
      const { userId, username } = parsed.data;
      const removed = await opts.removeProductsOf(userId);
      log.info({ eventId: event.id, userId, username, removed }, 'removed the products of a deleted account');
    }),
  };
}
