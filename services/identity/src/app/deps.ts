import type { Connection } from 'mongoose';
import type { Logger, Outbox } from '@qm/platform';
import type { KeycloakClient } from '../keycloak/client';
import type { Mailer } from '../mail/mailer';
import type { OtpStore } from '../store/otps';
import type { UserStore } from '../store/users';

/** What the use cases work with; built once in service.ts. */
export interface Deps {
  conn: Connection;
  users: UserStore;
  otps: OtpStore;
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
