// Users ready to send money, for the wallet benchmarks (load/op-cost.mjs, load/transfer-burst.mjs):
// registered, approved by the admin, signed in, a PIN set and verified with the mailed code, and
// topped up through the sandbox checkout. Loopback only.
import { apiClient, emailOf, registerApproved, topUp } from '../../e2e/lib/api.mjs';
import { loopbackOnly } from './loopback.cjs';

export { topUp };

export const BASE = process.env.BASE_URL || 'http://127.0.0.1:8080';
const MAILDEV = process.env.MAILDEV_URL || 'http://127.0.0.1:1080';
const ADMIN = { username: 'admin', password: process.env.ADMIN_PASSWORD || 'Admin@12345' };
loopbackOnly(BASE, MAILDEV);

const PASSWORD = 'CostRun@12345';
export const PIN = '135790';

/** The newest 6-digit code maildev holds for `address`. */
async function mailedCode(address) {
  for (let i = 0; i < 50; i++) {
    const mails = await (await fetch(`${MAILDEV}/email`)).json();
    const code = mails
      .filter((m) => m.to.some((t) => t.address.toLowerCase() === address))
      .map((m) => /\b(\d{6})\b/.exec(m.text || '')?.[1])
      .findLast(Boolean);
    if (code) return code;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no code mailed to ${address}`);
}

/**
 * `count` new users named `<prefix>_<i>_<run>`, each `{ username, cookie, call }` (`call`: its apiClient). With `funded`, each
 * also has a verified PIN and `rupees` in its wallet; the others can only receive.
 */
export async function walletUsers(prefix, count, { funded = count, rupees = '1000' } = {}) {
  const run = Date.now().toString(36);
  const users = Array.from({ length: count }, (_, i) => ({
    username: `${prefix}_${i}_${run}`,
    firstName: 'Bench',
    lastName: `User ${i}`,
    role: 'Army',
  }));
  await registerApproved(BASE, users, PASSWORD, ADMIN);
  const ready = [];
  // A few at a time: the setup is not what is measured, and a sign-in costs Keycloak a password hash.
  for (let i = 0; i < users.length; i += 4)
    ready.push(...(await Promise.all(users.slice(i, i + 4).map((user, j) => prepare(user, i + j < funded)))));
  return ready;

  async function prepare(user, withMoney) {
    const call = apiClient(BASE);
    await call('POST', '/api/login', { username: user.username, password: PASSWORD, portal: 'user' });
    if (withMoney) {
      await call('POST', '/api/wallet/setup-pin', { pin: PIN, confirmPin: PIN });
      await call('POST', '/api/wallet/send-otp', {});
      await call('POST', '/api/wallet/verify-otp', { otp: await mailedCode(emailOf(user)) });
      await topUp(call, rupees);
    }
    return { username: user.username, cookie: call.cookie(), call };
  }
}

/** One P2P transfer of `amount` rupees; answers the response (status, headers, body text). */
export async function transfer(from, to, amount, key) {
  const res = await fetch(`${BASE}/api/wallet/transfer`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: BASE,
      cookie: from.cookie,
      'idempotency-key': key,
    },
    body: JSON.stringify({ receiverUsername: to.username, amount, pin: PIN }),
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.text() };
}
