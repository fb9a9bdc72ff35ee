// Node-side setup calls of the browser journeys: a cookie-keeping API client, registration and an
// API sign-in that puts the session cookie into a browser context.
import { assert } from './steps.mjs';

/** A tiny cookie-keeping client for the setup calls; answers the JSON body, throws on a non-2xx. */
export function apiClient(baseUrl) {
  let cookie = '';
  async function call(method, url, body) {
    const res = await fetch(`${baseUrl}${url}`, {
      method,
      headers: {
        Accept: 'application/json',
        Origin: baseUrl,
        'X-Requested-With': 'quartermaster',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(cookie ? { Cookie: cookie } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const set = res.headers.getSetCookie().map((c) => c.split(';')[0]);
    if (set.length) cookie = set.join('; ');
    const text = await res.text();
    let json;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (!res.ok)
      throw new Error(`${method} ${url}: HTTP ${res.status} ${json?.message ?? text.slice(0, 200)}`);
    return json;
  }
  /** The session cookie, for calls made without the client (e.g. with headers of their own). */
  call.cookie = () => cookie;
  return call;
}

export const emailOf = (user) => `${user.username}@example.test`;

/** Registers `user` ({ username, firstName, lastName, role, phoneNumber? }) and answers its id. */
export async function register(baseUrl, user, password) {
  const out = await apiClient(baseUrl)('POST', '/api/register', {
    username: user.username,
    password,
    confirmPassword: password,
    email: emailOf(user),
    firstName: user.firstName,
    lastName: user.lastName,
    phoneNumber: user.phoneNumber ?? '+91 98765 43210',
    role: user.role,
  });
  assert(out?.user?.id, `register ${user.username}: no user id in the answer`);
  return out.user.id;
}

/** Signs a browser context in through the API; the session cookie lands in the context's cookie jar. */
export async function signInContext(baseUrl, context, username, password, portal = 'user') {
  const res = await context.request.post(`${baseUrl}/api/login`, {
    headers: { Origin: baseUrl, 'X-Requested-With': 'quartermaster' },
    data: { username, password, portal },
  });
  assert(res.ok(), `sign in as ${username}: HTTP ${res.status()} ${(await res.text()).slice(0, 200)}`);
}

/**
 * Credits `amount` rupees ("500", 100 to 100000) to the wallet of the client's user through the
 * sandbox checkout, as the wallet page does: create the payment order, pay with the good test card,
 * verify. `call` is a signed-in apiClient.
 */
export async function topUp(call, amount) {
  const order = await call('POST', '/api/create-order', { amount });
  const proof = await call('POST', '/api/sandbox/pay', {
    orderId: order.id,
    cardNumber: '4242 4242 4242 4242',
    expiry: '12/34',
    cvc: '123',
  });
  await call('POST', '/api/verify-payment', proof);
}

/** An apiClient signed in as `username` (portal `user` or `admin`). */
export async function signedInClient(baseUrl, username, password, portal = 'user') {
  const call = apiClient(baseUrl);
  await call('POST', '/api/login', { username, password, portal });
  return call;
}

/**
 * Registers each of `users` and has the administrator (`admin`: { username, password }) approve
 * them all; answers their ids in order.
 */
export async function registerApproved(baseUrl, users, password, admin) {
  const ids = [];
  for (const user of users) ids.push(await register(baseUrl, user, password));
  const adminApi = await signedInClient(baseUrl, admin.username, admin.password, 'admin');
  for (const id of ids) await adminApi('PATCH', `/api/users/${id}/status`, { status: 'approved' });
  return ids;
}
