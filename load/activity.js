/* global __ENV */
// k6 benchmark of the administrators' activity log (docs/adr/011): GET /api/admin/user-activities
// filtered by user, by category tab, by action (target p95 ≤ 200 ms) and with a free-text search,
// alone or within one user's log (target p95 ≤ 1 s), against a log seeded to 1 M records. Each
// request picks a random user, tab, action or search word, and the first page or a later one.
//
//   make dev                                   # or: node scripts/dev.mjs --no-frontends
//   npm run activity:seed                      # 1 M records (README "Measured")
//   .tools/bin/k6 run load/activity.js         # or: npm run bench:activity (seeds first)
//
// One admin session, signed in once in setup(); VUS virtual admins (default 10) each wait
// THINK_SECONDS (default 0.5) between requests. p50 is `med`, p95 `p(95)` of
// http_req_duration{endpoint:…}.
import { check, sleep } from 'k6';
import { client, loopbackOnly } from './lib/k6-api.js';

const BASE = __ENV.BASE_URL || 'http://127.0.0.1:8080';
const ADMIN_PASSWORD = __ENV.ADMIN_PASSWORD || 'Admin@12345';
const USERS = Number(__ENV.SEEDED_USERS || 1000);
// load/seed-activity.ts numbers its users from here + 1, apart from the stack's real ones.
const USER_BASE = 1_000_000;
const THINK_SECONDS = Number(__ENV.THINK_SECONDS ?? 0.5);

loopbackOnly(BASE);
const { get, signIn } = client(BASE);

const CATEGORIES = ['login', 'profile', 'wallet', 'orders', 'password'];
const ACTIONS = [
  'login',
  'failed_login',
  'wallet_transfer',
  'order_place',
  'product_view',
  'password_change',
];
// Rare and common words: a user's email, a product number, an action, a word in every tenth record.
const SEARCHES = [
  () => `user${user()}@units`,
  () => `product ${Math.floor(Math.random() * 5000)}`,
  () => 'wallet',
  () => 'sandbox',
  () => 'mk42',
];

export const options = {
  setupTimeout: '2m',
  scenarios: {
    admins: { executor: 'constant-vus', vus: Number(__ENV.VUS || 10), duration: __ENV.DURATION || '60s' },
  },
  summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
  thresholds: {
    checks: ['rate>0.99'],
    'http_req_duration{endpoint:by-user}': [`p(95)<=${__ENV.FILTER_P95_MS || 200}`],
    'http_req_duration{endpoint:by-category}': [`p(95)<=${__ENV.FILTER_P95_MS || 200}`],
    'http_req_duration{endpoint:by-action}': [`p(95)<=${__ENV.FILTER_P95_MS || 200}`],
    'http_req_duration{endpoint:by-user-and-tab}': [`p(95)<=${__ENV.FILTER_P95_MS || 200}`],
    'http_req_duration{endpoint:search}': [`p(95)<=${__ENV.SEARCH_P95_MS || 1000}`],
    'http_req_duration{endpoint:user-search}': [`p(95)<=${__ENV.SEARCH_P95_MS || 1000}`],
  },
};

export function setup() {
  return { cookie: signIn('admin', ADMIN_PASSWORD, 'admin') };
}

const pick = (list) => list[Math.floor(Math.random() * list.length)];
const page = () => (Math.random() < 0.7 ? 1 : 2 + Math.floor(Math.random() * 20));
const user = () => USER_BASE + 1 + Math.floor(Math.random() * USERS);

export default function ({ cookie }) {
  const kinds = {
    'by-user': () => `userId=${user()}`,
    'by-category': () => `category=${pick(CATEGORIES)}`,
    'by-action': () => `action=${pick(ACTIONS)}`,
    'by-user-and-tab': () => `userId=${user()}&category=${pick(CATEGORIES)}`,
    search: () => `search=${encodeURIComponent(pick(SEARCHES)())}`,
    'user-search': () => `userId=${user()}&search=${encodeURIComponent(pick(SEARCHES)())}`,
  };
  const endpoint = pick(Object.keys(kinds));
  const res = get(
    `/api/admin/user-activities?pageSize=20&page=${page()}&${kinds[endpoint]()}`,
    cookie,
    endpoint,
  );
  check(res, {
    [`${endpoint} 200`]: (r) => r.status === 200,
    [`${endpoint} has a page`]: (r) => r.status === 200 && Array.isArray(r.json('activities')),
  });
  sleep(THINK_SECONDS);
}
