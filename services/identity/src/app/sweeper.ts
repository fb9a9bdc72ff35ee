import type { Accounts } from './accounts';
import type { Deps } from './deps';
import type { SignOuts } from './sign-outs';

/** How long a registration may stay unlinked to its Keycloak user before it is settled. */
const UNLINKED_GRACE_MS = 2 * 60_000;
/** A decision mail is retried by the sweeper once the request that made it had its chance. */
const MAIL_GRACE_MS = 60_000;

export interface Sweeper {
  /** One pass over everything below; the service runs it on an interval. */
  once(): Promise<void>;
}

/**
 * Finishes what a crash or an outage left half-done, and removes dead codes:
 * - codes past use,
 * - registrations whose Keycloak user was never linked (linked if Keycloak has it, else removed),
 * - approvals whose Keycloak user is not enabled yet,
 * - decision emails that did not go out,
 * - sign-outs after a password change that Keycloak has not confirmed yet.
 */
export function createSweeper(d: Deps, accounts: Accounts, signOuts: SignOuts): Sweeper {
  /** Users written before the open-work flags existed are marked once per process. */
  let marking: Promise<number> | undefined;

  async function once(): Promise<void> {
    try {
      await (marking ??= d.users.markOpenWork());
    } catch (err) {
      marking = undefined;
      throw err;
    }
    const now = d.clock();
    await d.otps.sweep(now);
    await signOuts.retryDue();

    for (const u of await d.users.unlinkedBefore(new Date(now.getTime() - UNLINKED_GRACE_MS))) {
      const kcUser = await d.kc.findByUsername(u.username);
      if (kcUser && kcUser.email?.toLowerCase() === u.emailKey) {
        await d.kc.assignRealmRole(kcUser.id, u.role);
        await d.users.setKcId(u.id, kcUser.id, kcUser.enabled);
        d.log.info({ userId: u.id }, 'linked a registration to its Keycloak user');
      } else {
        await d.users.remove(u.id);
        d.log.info({ userId: u.id }, 'removed a registration that never reached Keycloak');
      }
    }
    for (const u of await d.users.approvedNotEnabled()) await accounts.enableInKeycloak(u);
    for (const u of await d.users.decisionMailsPending(new Date(now.getTime() - MAIL_GRACE_MS)))
      // Every replica's sweeper reads the same pending mails (docs/adr/025): the one that claims
      // a mail sends it; if it fails or dies, the mail is taken again after the grace.
      if (await d.users.claimDecisionMail(u.id, now, new Date(now.getTime() + MAIL_GRACE_MS)))
        await accounts.sendDecisionMail(u);
  }

  return { once };
}
