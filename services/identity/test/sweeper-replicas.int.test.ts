import { connectMongo, createOutbox, type EventBus, type Outbox } from '@qm/platform';
import { INFRA, testLog, uniqueName } from '@qm/testkit';
import type { Connection } from 'mongoose';
import { type Accounts, createAccounts } from '../src/app/accounts';
import type { Deps } from '../src/app/deps';
import { createSignOuts, type SignOuts } from '../src/app/sign-outs';
import { createSweeper, type Sweeper } from '../src/app/sweeper';
import type { KeycloakClient } from '../src/keycloak/client';
import type { Mailer } from '../src/mail/mailer';
import { createOtpStore } from '../src/store/otps';
import { createSignOutStore } from '../src/store/sign-outs';
import { createUserStore, type StoredUser } from '../src/store/users';

/**
 * docs/adr/025: identity's sweeper runs on every replica, and two of them must not do one thing
 * twice. Its sign-out part ends a user's Keycloak sessions after a password change when the request
 * could not (Keycloak down, or the process died before its attempt reported back): a second logout,
 * late, would end the session the user began with the new password. Its mail part sends the
 * decision emails a request could not: a second would be a duplicate in the user's inbox.
 */
jest.setTimeout(120_000);

const log = testLog('identity-sign-outs');

/** One Keycloak for both replicas: counts logouts per user; a planned failure or hang comes first. */
function fakeKeycloak() {
  const logouts = new Map<string, number>();
  const succeeded = new Map<string, number>();
  const plan = new Map<string, ('fail' | 'hang')[]>();
  const kc = {
    async resetPassword() {},
    async setEnabled() {},
    async logoutUser(id: string) {
      logouts.set(id, (logouts.get(id) ?? 0) + 1);
      const next = plan.get(id)?.shift();
      if (next === 'hang') return new Promise<void>(() => undefined);
      // A real call takes a while: long enough for the other replica to read the same job.
      await new Promise((r) => setTimeout(r, 30));
      if (next === 'fail') throw new Error('Keycloak unavailable');
      succeeded.set(id, (succeeded.get(id) ?? 0) + 1);
    },
  };
  return { kc: kc as unknown as KeycloakClient, logouts, succeeded, plan };
}

describe("two identity replicas' sweepers over the same due work", () => {
  let one: Connection;
  let two: Connection;
  let offsetMs = 0;
  const clock = () => new Date(Date.now() + offsetMs);
  const keycloak = fakeKeycloak();
  /** One mail server for both replicas: down (refusing) or up (counting what each address gets). */
  const mails = new Map<string, number>();
  let mailDown = false;
  const mailer: Mailer = {
    async send(to) {
      if (mailDown) throw new Error('SMTP unavailable');
      await new Promise((r) => setTimeout(r, 30));
      mails.set(to, (mails.get(to) ?? 0) + 1);
    },
    close: () => undefined,
  };
  // The events are not what is tested here: a bus that takes every publish.
  const bus = { publish: async () => undefined } as unknown as EventBus;

  function replica(conn: Connection): {
    signOuts: SignOuts;
    accounts: Accounts;
    sweeper: Sweeper;
    outbox: Outbox;
  } {
    const outbox = createOutbox({ conn, bus, log, confirm: async () => true });
    const d: Deps = {
      conn,
      users: createUserStore(conn),
      otps: createOtpStore(conn),
      signOuts: createSignOutStore(conn),
      kc: keycloak.kc,
      mailer,
      outbox,
      log,
      clock,
      publicUrl: 'http://localhost:8080',
    };
    const signOuts = createSignOuts(d);
    const accounts = createAccounts(d);
    return { signOuts, accounts, sweeper: createSweeper(d, accounts, signOuts), outbox };
  }

  beforeAll(async () => {
    one = await connectMongo(INFRA.MONGO_URL, uniqueName('qm_test_identity_sign_outs'));
    two = await connectMongo(INFRA.MONGO_URL, one.name);
    await Promise.all([
      createUserStore(one).init(),
      createOtpStore(one).init(),
      createSignOutStore(one).init(),
    ]);
  });
  afterAll(async () => {
    await one?.dropDatabase();
    await one?.close();
    await two?.close();
  });

  it('end each user’s sessions once, however often both sweep at once', async () => {
    const a = replica(one);
    const b = replica(two);
    const base = 1_000 + Math.floor(Math.random() * 1_000_000);
    const users = Array.from(
      { length: 18 },
      (_, i) => ({ id: base + i, username: `u${base + i}`, kcId: `kc-${base}-${i}` }) as StoredUser,
    );
    // Each password changed through the real use case; its immediate sign-out did not get through:
    // Keycloak refused it (the job waits 5 s), or the process died before it reported back (the
    // job waits out its 30 s lease). A third of the jobs fail once more when the sweepers try.
    const failsInSweep = new Set<string>();
    for (const [i, u] of users.entries()) {
      keycloak.plan.set(u.kcId!, [i % 2 ? 'fail' : 'hang', ...(i % 3 ? [] : ['fail' as const])]);
      if (i % 3 === 0) failsInSweep.add(u.kcId!);
      const changed = (i % 2 ? a : b).signOuts.changePassword(u, 'New#Pass1');
      if (i % 2) await changed;
      else void changed;
    }
    const jobs = one.collection('sign_outs');
    while ((await jobs.countDocuments()) < users.length) await new Promise((r) => setTimeout(r, 20));
    const before = new Map(keycloak.logouts);

    // Both replicas' timers fire together, more than once; then again after each retry wait.
    for (let round = 0; round < 4 && (await jobs.countDocuments()) > 0; round++) {
      offsetMs += 60_000;
      await Promise.all([a.sweeper.once(), b.sweeper.once(), a.sweeper.once(), b.sweeper.once()]);
    }

    expect(await jobs.countDocuments()).toBe(0);
    const attempts = users.map((u) => [
      u.username,
      (keycloak.logouts.get(u.kcId!) ?? 0) - (before.get(u.kcId!) ?? 0),
      keycloak.succeeded.get(u.kcId!) ?? 0,
    ]);
    // Per user: one attempt by the sweepers, two where Keycloak refused the first; one success.
    expect(attempts).toEqual(users.map((u) => [u.username, failsInSweep.has(u.kcId!) ? 2 : 1, 1]));
    await a.outbox.stop();
    await b.outbox.stop();
  });

  it('send each decision email once, however often both sweep at once', async () => {
    const a = replica(one);
    const b = replica(two);
    const base = 2_000_000 + Math.floor(Math.random() * 1_000_000);
    const users = Array.from({ length: 12 }, (_, i) => {
      const username = `pending${base + i}`;
      const email = `${username}@example.test`;
      return { id: base + i, username, usernameKey: username, email, emailKey: email };
    });
    for (const u of users)
      await createUserStore(one).insert({
        ...u,
        firstName: 'Asha',
        lastName: 'Rao',
        role: 'Army',
        status: 'pending',
        kcId: `kc-${u.id}`,
      });
    // An administrator decides each through the real use case while the mail server is down: the
    // decision stands, its email is left for the sweeper.
    mailDown = true;
    const admin = { userId: 1, username: 'admin', roles: ['Admin'] };
    for (const [i, u] of users.entries())
      await (i % 2 ? a : b).accounts.updateStatus(
        admin,
        u.id,
        i % 3 ? 'approved' : 'rejected',
        i % 3 ? '' : 'Service number not found',
      );
    expect(mails.size).toBe(0);
    mailDown = false;

    const pending = () => createUserStore(one).decisionMailsPending(new Date(clock().getTime() + 1));
    for (let round = 0; round < 3 && (await pending()).length; round++) {
      offsetMs += 120_000;
      await Promise.all([a.sweeper.once(), b.sweeper.once(), a.sweeper.once(), b.sweeper.once()]);
    }
    expect(await pending()).toEqual([]);
    expect(users.map((u) => [u.email, mails.get(u.email) ?? 0])).toEqual(users.map((u) => [u.email, 1]));
    await a.outbox.stop();
    await b.outbox.stop();
  });

  it('the sweeper asks for open work by flags only open work carries; what was written before them is marked once (ADR 042)', async () => {
    const users = createUserStore(one);
    const base = 2_000_000 + Math.floor(Math.random() * 1_000_000);
    const user = (id: number, extra: Partial<StoredUser>) => ({
      id,
      username: `open${id}`,
      usernameKey: `open${id}`,
      email: `open${id}@example.test`,
      emailKey: `open${id}@example.test`,
      firstName: 'Asha',
      lastName: 'Rao',
      role: 'Army' as const,
      ...extra,
    });
    // Written before the flags existed: a registration whose process died before it linked
    // Keycloak's user, and an approval whose Keycloak user was not enabled.
    await users.insert(user(base, { status: 'pending', kcId: null }));
    await users.insert(user(base + 1, { status: 'approved', kcId: `kc-${base + 1}`, kcEnabled: false }));
    // Written now, as registration writes it.
    await users.insert(user(base + 2, { status: 'pending', kcId: null, linkPending: true }));
    const cutoff = new Date(Date.now() + 60_000);
    const ours = (found: StoredUser[]) =>
      found
        .map((u) => u.id)
        .filter((id) => id >= base && id < base + 10)
        .sort();
    expect(ours(await users.unlinkedBefore(cutoff))).toEqual([base + 2]);
    expect(ours(await users.approvedNotEnabled())).toEqual([]);
    expect(await users.markOpenWork()).toBeGreaterThanOrEqual(2);
    expect(await users.markOpenWork()).toBe(0);
    expect(ours(await users.unlinkedBefore(cutoff))).toEqual([base, base + 2]);
    expect(ours(await users.approvedNotEnabled())).toEqual([base + 1]);
    // Linked, enabled: no longer open, and no longer flagged.
    await users.setKcId(base, `kc-${base}`, false);
    await users.setKcEnabled(base + 1, true);
    expect(ours(await users.unlinkedBefore(cutoff))).toEqual([base + 2]);
    expect(ours(await users.approvedNotEnabled())).toEqual([]);
    expect(await users.byId(base)).not.toHaveProperty('linkPending');
    expect(await users.byId(base + 1)).not.toHaveProperty('enablePending');
    // An approval carries its flag until its Keycloak user is enabled; a rejection none.
    await users.decide(base, { status: 'approved', rejectionReason: null }, 1, new Date());
    await users.decide(base + 2, { status: 'rejected', rejectionReason: 'x' }, 1, new Date());
    expect(ours(await users.approvedNotEnabled())).toEqual([base]);
  });
});
