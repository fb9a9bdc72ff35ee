/* global __ENV */
// k6 load test of the market's product list (figures in docs/performance/): GET /api/products (the whole
// catalogue, the product reference's array) and GET /api/products?q= (a search), 50 virtual users each, one
// after the other, from loopback. Seed first: `npx tsx load/seed-products.ts --count 10000`.
//
//   .tools/bin/k6 run load/catalog.js
//   BASE_URL=http://127.0.0.1:8080 QM_USER=army_demo QM_PASSWORD=Army@12345 VUS=50 DURATION=30s \
//     .tools/bin/k6 run --summary-export load/results/catalog.json load/catalog.js
//
// p50 is `med` and p95 `p(95)` of http_req_duration{endpoint:list} and {endpoint:search}.
import http from 'k6/http';
import { check, fail } from 'k6';
import { loopbackOnly } from './lib/k6-api.js';

const BASE = __ENV.BASE_URL || 'http://127.0.0.1:8080';
const USER = __ENV.QM_USER || 'army_demo';
const PASSWORD = __ENV.QM_PASSWORD || 'Army@12345';
const VUS = Number(__ENV.VUS || 50);
const DURATION = __ENV.DURATION || '30s';
const seconds = (d) => Number(/^(\d+)s$/.exec(d)?.[1] ?? 30);

loopbackOnly(BASE);

/** Words the seeding script puts in names and descriptions, from common to rare. */
const TERMS = [
  'rifle',
  'thermal',
  'armoured',
  'night vision',
  'kestrel',
  'ration',
  'mk-7',
  'desert',
  'gps',
  'radio',
];

export const options = {
  scenarios: {
    list: {
      executor: 'constant-vus',
      vus: VUS,
      duration: DURATION,
      exec: 'list',
      tags: { endpoint: 'list' },
    },
    search: {
      executor: 'constant-vus',
      vus: VUS,
      duration: DURATION,
      startTime: `${seconds(DURATION) + 5}s`,
      exec: 'search',
      tags: { endpoint: 'search' },
    },
  },
  summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
  thresholds: {
    http_req_failed: ['rate<0.01'],
    // Targets, overridable: the whole 10,000-product list is ~4.4 MB of JSON (~340 kB gzipped).
    'http_req_duration{endpoint:list}': [`p(95)<${__ENV.LIST_P95_MS || 1000}`],
    'http_req_duration{endpoint:search}': [`p(95)<${__ENV.SEARCH_P95_MS || 500}`],
  },
};

/** Signs in once through the product reference's POST /api/login; every virtual user reuses the session cookie. */
export function setup() {
  if (__ENV.SESSION_COOKIE) return { cookie: __ENV.SESSION_COOKIE };
  const res = http.post(`${BASE}/api/login`, JSON.stringify({ username: USER, password: PASSWORD }), {
    headers: { 'Content-Type': 'application/json', Origin: BASE },
    tags: { endpoint: 'login' },
  });
  if (res.status !== 200) fail(`login as ${USER} failed: ${res.status} ${res.body} (is the stack seeded?)`);
  const cookie = Object.entries(res.cookies)
    .map(([name, values]) => `${name}=${values[0].value}`)
    .join('; ');
  const probe = http.get(`${BASE}/api/products?page=1&pageSize=1`, { headers: { Cookie: cookie } });
  console.log(`catalogue size: ${probe.headers['X-Total-Count']} products`);
  return { cookie };
}

/** As a browser asks (it always accepts gzip); the body is not kept, so k6 spends no time on it. */
const headers = (data) => ({ Cookie: data.cookie, 'Accept-Encoding': 'gzip, deflate' });
const isList = (r) => r.status === 200 && r.headers['Content-Type']?.startsWith('application/json');

export function list(data) {
  const res = http.get(`${BASE}/api/products`, {
    headers: headers(data),
    tags: { endpoint: 'list' },
    responseType: 'none',
  });
  check(res, { 'list 200': isList });
}

export function search(data) {
  const term = TERMS[Math.floor(Math.random() * TERMS.length)];
  const res = http.get(`${BASE}/api/products?q=${encodeURIComponent(term)}`, {
    headers: headers(data),
    tags: { endpoint: 'search', name: `${BASE}/api/products?q=` },
    responseType: 'none',
  });
  check(res, { 'search 200': isList });
}
