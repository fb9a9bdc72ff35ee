// The API calls the k6 load tests share (load/wallet.js, load/purchase.js, load/chaos.js): requests
// tagged by endpoint, sign-in into a Cookie header, registration and approval, sandbox top-ups, and
// the codes maildev received. k6 only.
import http from 'k6/http';
import { check, fail, sleep } from 'k6';

const LOOPBACK = /^https?:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?$/;

/** Load goes to this machine only: a stray BASE_URL must not load someone else's server. */
export function loopbackOnly(...urls) {
  for (const url of urls) {
    if (!LOOPBACK.test(url)) throw new Error(`refusing to send load anywhere but loopback: ${url}`);
  }
}

export function must(res, status, what) {
  if (res.status !== status) fail(`${what}: ${res.status} ${res.error || res.body}`);
  return res;
}

/** A setup step, tried again while the gateway answers 502-504 (the stack busy right after seeding). */
export function step(call, status, what) {
  let res = call();
  for (let attempt = 1; attempt < 5 && res.status >= 502 && res.status <= 504; attempt++) {
    sleep(2 * attempt);
    res = call();
  }
  return must(res, status, what);
}

/**
 * As a real client does with the gateway's admission control (docs/adr/026): a 503 with
 * Retry-After was never sent on, so the same request (same Idempotency-Key) goes again after it,
 * at most 5 times. Each shed attempt is its own sample (a fast 503, `expected_response:false`), so
 * the endpoints' latencies are taken over the requests that were served.
 */
export function honouringRetryAfter(send) {
  let res = send();
  for (let attempt = 1; attempt <= 5 && res.status === 503 && res.headers['Retry-After']; attempt++) {
    sleep(Number(res.headers['Retry-After']) * (0.5 + Math.random()));
    res = send();
  }
  return res;
}

/** The mails maildev at `url` holds for one address: the ids there now, and a code that arrives later. */
export function mailbox(url) {
  const mailsTo = (address) =>
    must(http.get(`${url}/email`, { tags: { endpoint: 'maildev' } }), 200, 'maildev')
      .json()
      .filter((m) => m.to.some((t) => t.address.toLowerCase() === address));
  return {
    idsTo: (address) => new Set(mailsTo(address).map((m) => m.id)),
    /** The six-digit code of the newest mail to `address` not among `seen`, waiting up to `waitSeconds`. */
    codeTo(address, seen, waitSeconds) {
      for (let waited = 0; waited < waitSeconds; waited += 0.25) {
        const fresh = mailsTo(address)
          .filter((m) => !seen.has(m.id))
          .map((m) => /\b(\d{6})\b/.exec(m.text || '')?.[1])
          .filter(Boolean);
        if (fresh.length) return fresh[fresh.length - 1];
        sleep(0.25);
      }
      return fail(`no code mailed to ${address}`);
    },
  };
}

export function client(base) {
  const JSON_HEADERS = { 'content-type': 'application/json', origin: base };

  /**
   * `expect`: statuses that are answers, not failures, in http_req_failed (k6 counts ≥ 400).
   * `tags`: more tags beside the endpoint, to report a kind of its requests on its own.
   */
  function post(path, body, { cookie, key, endpoint = 'setup', expect, tags = {} } = {}) {
    const headers = { ...JSON_HEADERS };
    if (cookie) headers.cookie = cookie;
    if (key) headers['idempotency-key'] = key;
    const params = { headers, tags: { ...tags, endpoint } };
    if (expect) params.responseCallback = http.expectedStatuses(...expect);
    return honouringRetryAfter(() => http.post(`${base}${path}`, JSON.stringify(body), params));
  }

  function get(path, cookie, endpoint) {
    return honouringRetryAfter(() => http.get(`${base}${path}`, { headers: { cookie }, tags: { endpoint } }));
  }

  /** Signs in and answers the session cookie as a Cookie header (the jar is cleared for the next). */
  function signIn(username, password, portal = 'user') {
    const res = must(
      http.post(`${base}/api/login`, JSON.stringify({ username, password, portal }), {
        headers: JSON_HEADERS,
        tags: { endpoint: 'login' },
      }),
      200,
      `sign-in ${username}`,
    );
    const cookie = Object.entries(res.cookies)
      .map(([name, values]) => `${name}=${values[0].value}`)
      .join('; ');
    http.cookieJar().clear(base);
    return cookie;
  }

  /** Registers a user with `role` and answers `{ username, email, id }`. */
  function register(username, password, role, lastName) {
    const email = `${username}@load.local`;
    const reg = must(
      post('/api/register', {
        username,
        password,
        confirmPassword: password,
        email,
        firstName: 'Load',
        lastName,
        phoneNumber: '',
        role,
      }),
      201,
      `register ${username}`,
    );
    return { username, email, id: reg.json('user.id') };
  }

  function approve(adminCookie, user) {
    const res = http.patch(`${base}/api/users/${user.id}/status`, JSON.stringify({ status: 'approved' }), {
      headers: { ...JSON_HEADERS, cookie: adminCookie },
    });
    must(res, 200, `approve ${user.username}`);
  }

  /** Add Money through the sandbox with the test card that succeeds; answers the credited response. */
  function topUp(cookie, amount, key) {
    const order = post(
      '/api/create-order',
      { amount },
      { cookie, key: `${key}:order`, endpoint: 'create-order' },
    );
    if (!check(order, { 'order created': (r) => r.status === 200 || r.status === 201 })) return order;
    const paid = post(
      '/api/sandbox/pay',
      { orderId: order.json('id'), cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' },
      { cookie, endpoint: 'sandbox-pay' },
    );
    if (!check(paid, { 'sandbox paid': (r) => r.status === 200 })) return paid;
    const verified = post(
      '/api/verify-payment',
      {
        providerOrderId: paid.json('providerOrderId'),
        providerPaymentId: paid.json('providerPaymentId'),
        providerSignature: paid.json('providerSignature'),
      },
      { cookie, key: `${key}:verify`, endpoint: 'verify-payment' },
    );
    check(verified, { 'payment verified': (r) => r.status === 200 });
    return verified;
  }

  return { post, get, signIn, register, approve, topUp };
}
