import type { Connection } from 'mongoose';
import type { Logger, Outbox } from '@qm/platform';
import type { KeycloakClient } from '../keycloak/client';
import type { Mailer } from '../mail/mailer';
import type { OtpStore } from '../store/otps';
import type { SignOutStore } from '../store/sign-outs';
import type { UserStore } from '../store/users';
import { events } from '../events/events';

/** What the use cases work with; built once in service.ts. */
export interface Deps {
  conn: Connection;
  users: UserStore;
  otps: OtpStore;
  signOuts: SignOutStore;
  kc: KeycloakClient;
  mailer: Mailer;
  outbox: Outbox;
  log: Logger;
  /** Injectable time, so expiry rules are tested without waiting. */
  clock: () => Date;
  publicUrl: string;
}

/** Runs a side job whose failure must not fail the request (it is logged; a sweeper may retry). */
export async function bestEffort(log: Logger, what: string, fn: () => Promise<unknown>): Promise<void> {
  try {
    await fn();
  } catch (err) {
    log.warn({ err }, `${what} failed`);
  }
}

/**
 * Records a user's activity. It announces no database change of its own, so it is published at
 * once (acknowledged by the stream) and goes through the outbox only when that fails.
 */
export function recordActivity(
  d: Pick<Deps, 'outbox'>,
  user: { id: number; username: string },
  action: string,
  details: string,
): Promise<void> {
  return d.outbox.publish([events.activity(user, action, details)]);
}
