/* global __ENV, __VU */
// k6 benchmark of the assistant's built-in engine (docs/architecture.md §8: reply p95 ≤ 150 ms at 20 concurrent
// users), POST /api/chat/message through the gateway with real sessions and real tool calls.
//
//   AUTH_RATE_LIMIT_SCALE=100 make dev        # the chat's per-user limit is 30 a minute
//   .tools/bin/k6 run load/chat.js            # or: npm run bench:chat
//
// setup() registers VUS Army buyers, approves them, signs each in once and tops each up through the
// sandbox, so every answer has a wallet, a transaction and activity to read. Each virtual user then
// keeps one session and asks, one after another with THINK_SECONDS between (default 1), the four
// chips, an order number, a product search and an unknown question: every kind of answer the panel
// gets, each of which calls one or more services as the user. p50 is `med`, p95 `p(95)` of
// http_req_duration{endpoint:chat}.
import { check, sleep } from 'k6';
import { client, loopbackOnly } from './lib/k6-api.js';

const BASE = __ENV.BASE_URL || 'http://127.0.0.1:8080';
const VUS = Math.max(1, Number(__ENV.VUS || 20));
const ADMIN_PASSWORD = __ENV.ADMIN_PASSWORD || 'Admin@12345';
const THINK_SECONDS = Number(__ENV.THINK_SECONDS ?? 1);
const PASSWORD = 'LoadTest@12345';

loopbackOnly(BASE);
const { post, signIn, register, approve, topUp } = client(BASE);

const QUESTIONS = [
  'Show my orders',
  'Check wallet balance',
  'Latest transactions',
  'Military products',
  'What is the status of order #1?',
  'what weapons are available',
  'my recent activity',
  'transactions today',
  'how do I become a general',
];

export const options = {
  setupTimeout: '10m',
  scenarios: {
    chat: { executor: 'constant-vus', vus: VUS, duration: __ENV.DURATION || '60s' },
  },
  summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
  thresholds: {
    checks: ['rate>0.99'],
    'http_req_duration{endpoint:chat}': [`p(95)<=${__ENV.CHAT_P95_MS || 150}`],
  },
};

export function setup() {
  const run = Date.now().toString(36);
  const admin = signIn('admin', ADMIN_PASSWORD, 'admin');
  const users = Array.from({ length: VUS }, (_, i) =>
    register(`cload_${run}_${i}`, PASSWORD, 'Army', `Chat ${i}`),
  );
  for (const u of users) approve(admin, u);
  return users.map((u, i) => {
    const cookie = signIn(u.username, PASSWORD);
    topUp(cookie, 5000, `cload-${run}-${i}`);
    return { cookie };
  });
}

const sessions = {};

export default function (users) {
  const { cookie } = users[(__VU - 1) % users.length];
  const message = QUESTIONS[Math.floor(Math.random() * QUESTIONS.length)];
  const res = post(
    '/api/chat/message',
    { message, sessionId: sessions[__VU] ?? null },
    { cookie, endpoint: 'chat' },
  );
  const ok = check(res, {
    'chat answered': (r) => r.status === 200,
    'with a reply': (r) => r.status === 200 && r.json('response').length > 0,
    'not a connection failure': (r) => r.status === 200 && r.json('intent') !== 'unavailable',
  });
  if (ok) sessions[__VU] = res.json('sessionId');
  sleep(THINK_SECONDS);
}
