// Signing in through the gateway, as a browser does (with Origin, the session in cookies), for the load
// tools that need a session: one place for the request, the cookie header and the refusal's message.
// CommonJS, beside loopback.cjs, so the CommonJS TypeScript scripts require it as the .mjs scripts import it.
'use strict';

const { loopbackOnly } = require('./loopback.cjs');

/**
 * Signs `username` in at `base` (loopback only). Answers the signed-in user as `POST /api/login`
 * answers it, the `Cookie` header that carries the session, and the same cookies as name and value
 * (for a browser context). Throws with the gateway's status and answer unless it answered 200.
 */
async function signIn(base, username, password, portal = 'user') {
  loopbackOnly(base);
  const res = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ username, password, portal }),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`sign-in as ${username}: ${res.status} ${text.slice(0, 300)}`);
  const cookies = res.headers.getSetCookie().map((line) => {
    const pair = line.split(';')[0];
    const at = pair.indexOf('=');
    return { name: pair.slice(0, at), value: pair.slice(at + 1) };
  });
  if (!cookies.length) throw new Error(`sign-in as ${username}: no session cookie in the answer`);
  return {
    user: JSON.parse(text).user,
    cookie: cookies.map(({ name, value }) => `${name}=${value}`).join('; '),
    cookies,
  };
}

/** Ends the session `cookie` carries (rather than leaving it to expire). */
async function signOut(base, cookie) {
  loopbackOnly(base);
  const res = await fetch(`${base}/api/logout`, { method: 'POST', headers: { origin: base, cookie } });
  if (!res.ok) throw new Error(`sign-out: ${res.status} ${(await res.text()).slice(0, 300)}`);
}

module.exports = { signIn, signOut };
