import { ConfigError, createOutbox, type ServiceDefinition } from '@qm/platform';
import { serviceDefaults } from '@qm/roster';
import { createAccounts } from './app/accounts';
import { ensureAdminWhenReachable } from './app/admin-seed';
import type { Deps } from './app/deps';
import { createEmailChanges } from './app/email-changes';
import { createPasswords } from './app/passwords';
import { createSessions } from './app/sessions';
import { createSweeper } from './app/sweeper';
import { DEV_ADMIN_PASSWORD, DEV_CLIENT_SECRET, identityEnv } from './config';
import { identityConsumers } from './events/consumers';
import { confirmFor } from './events/events';
import { KeycloakClient } from './keycloak/client';
import { createMailer } from './mail/mailer';
import { registerIdentityServer } from './server';
import { createOtpStore } from './store/otps';
import { createSignOutStore } from './store/sign-outs';
import { createUserStore } from './store/users';

export interface IdentityOptions {
  /** The time the rules see; tests move it forward instead of waiting. */
  clock?: () => Date;
}

/**
 * The identity service (port and database: @qm/roster). Tests run it in-process with
 * `startService(createIdentityService(), env)`.
 */
export function createIdentityService(opts: IdentityOptions = {}): ServiceDefinition<typeof identityEnv> {
  return {
    ...serviceDefaults('identity'),
    env: identityEnv,
    async setup({ config, log, conn, bus, grpc, faults }) {
      const dev = config.NODE_ENV !== 'production';
      const adminPassword = config.ADMIN_PASSWORD ?? (dev ? DEV_ADMIN_PASSWORD : undefined);
      const clientSecret = config.KEYCLOAK_CLIENT_SECRET ?? (dev ? DEV_CLIENT_SECRET : undefined);
      const missing = [
        ...(adminPassword ? [] : ['ADMIN_PASSWORD']),
        ...(clientSecret ? [] : ['KEYCLOAK_CLIENT_SECRET']),
      ];
      if (missing.length)
        throw new ConfigError(
          `Invalid configuration:\n${missing.map((m) => `  ${m}: required in production`).join('\n')}`,
        );

      const users = createUserStore(conn);
      const otps = createOtpStore(conn);
      const signOuts = createSignOutStore(conn);
      await Promise.all([users.init(), otps.init(), signOuts.init()]);
      const kc = new KeycloakClient({
        url: config.KEYCLOAK_URL,
        realm: config.KEYCLOAK_REALM,
        clientId: config.KEYCLOAK_CLIENT_ID,
        clientSecret: clientSecret!,
        webClientId: config.KEYCLOAK_WEB_CLIENT_ID,
        log,
      });
      const mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, log, faults });
      const outbox = createOutbox({ conn, bus, log, confirm: confirmFor(users) });
      const deps: Deps = {
        conn,
        users,
        otps,
        signOuts,
        kc,
        mailer,
        outbox,
        log,
        clock: opts.clock ?? (() => new Date()),
        publicUrl: config.PUBLIC_URL,
      };
      const accounts = createAccounts(deps);
      const sessions = createSessions(deps);
      const passwords = createPasswords(deps);
      const emailChanges = createEmailChanges(deps);
      registerIdentityServer(grpc, { accounts, sessions, passwords, emailChanges });

      await ensureAdminWhenReachable(deps, { password: adminPassword!, email: config.ADMIN_EMAIL });
      outbox.start();
      const sweeper = createSweeper(deps, accounts, passwords.signOuts);

      return {
        ...identityConsumers({ sweeper, sweepEveryMs: config.SWEEP_INTERVAL_MS }),
        async stop() {
          await outbox.stop();
          await outbox.relayOnce().catch(() => undefined);
          mailer.close();
        },
      };
    },
  };
}

export const identityService = createIdentityService();
