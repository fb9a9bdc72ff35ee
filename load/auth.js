/* global __ENV, __VU */
// k6 load test of sign-in and the current-user call (figures in docs/performance/), from loopback.
// Each virtual user has its own account (Keycloak refuses concurrent sign-ins of one account):
// setup() registers them and approves them as admin. Every iteration signs in, reads
// GET /api/user five times with the session cookie, and signs out.
//
//   AUTH_RATE_LIMIT_SCALE=100 make dev   # the gateway's sign-in rate limit would otherwise answer 429
//   .tools/bin/k6 run load/auth.js
//
// p50 is `med` and p95 `p(95)` of http_req_duration{endpoint:login} and {endpoint:user}.
import http from 'k6/http';
import { check, fail } from 'k6';
import { loopbackOnly } from './lib/k6-api.js';

const BASE = __ENV.BASE_URL || 'http://127.0.0.1:8080';
const VUS = Number(__ENV.VUS || 10);
const ADMIN_PASSWORD = __ENV.ADMIN_PASSWORD || 'Admin@12345';
const PASSWORD = 'LoadTest@12345';

loopbackOnly(BASE);

export const options = {
  scenarios: {
    signin: { executor: 'constant-vus', vus: VUS, duration: __ENV.DURATION || '30s' },
  },
  // Thresholds on the tagged requests also make k6 report each endpoint's latency on its own.
  thresholds: {
    checks: ['rate>0.99'],
    'http_req_duration{endpoint:login}': ['p(95)<3000'],
    'http_req_duration{endpoint:user}': ['p(95)<500'],
  },
};

const json = { headers: { 'content-type': 'application/json', origin: BASE } };

function login(username, password, portal = 'user') {
  return http.post(`${BASE}/api/login`, JSON.stringify({ username, password, portal }), {
    ...json,
    tags: { endpoint: 'login' },
  });
}

export function setup() {
  const run = Date.now().toString(36);
  const admin = login('admin', ADMIN_PASSWORD, 'admin');
  if (admin.status !== 200) fail(`admin sign-in: ${admin.status} ${admin.body}`);
  const users = [];
  for (let i = 0; i < VUS; i++) {
    const username = `load_${run}_${i}`;
    const reg = http.post(
      `${BASE}/api/register`,
      JSON.stringify({
        username,
        password: PASSWORD,
        confirmPassword: PASSWORD,
        email: `${username}@load.local`,
        firstName: 'Load',
        lastName: `User ${i}`,
        phoneNumber: '',
        role: 'Army',
      }),
      json,
    );
    if (reg.status !== 201) fail(`register ${username}: ${reg.status} ${reg.body}`);
    users.push({ username, id: reg.json('user.id') });
  }
  for (const u of users) {
    const res = http.patch(`${BASE}/api/users/${u.id}/status`, JSON.stringify({ status: 'approved' }), json);
    if (res.status !== 200) fail(`approve ${u.username}: ${res.status} ${res.body}`);
  }
  http.cookieJar().clear(BASE);
  return { users };
}

export default function (data) {
  const user = data.users[(__VU - 1) % data.users.length];
  const res = login(user.username, PASSWORD);
  check(res, { 'signed in': (r) => r.status === 200 });
  for (let i = 0; i < 5; i++) {
    const me = http.get(`${BASE}/api/user`, { tags: { endpoint: 'user' } });
    check(me, { 'current user': (r) => r.status === 200 && r.json('username') === user.username });
  }
  http.post(`${BASE}/api/logout`, null, { ...json, tags: { endpoint: 'logout' } });
}
