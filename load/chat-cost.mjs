// What one chat answer costs: N questions of load/chat.js's mix, one after another, by an
// Army buyer this script registers (the administrator approves them), with the CPU time every process
// of the local stack spent on them (load/lib/process-cpu.mjs). With C ms of CPU per answer, two cores
// answer at most 2000 / C messages a second; load/chat.js's tail above that is queueing.
//
//   make dev                              # AUTH_RATE_LIMIT_SCALE=100 for N above 30 a minute
//   node load/chat-cost.mjs [N=90]
import { cpuByComponent, latencySummary, perOperation } from './lib/process-cpu.mjs';
import { loopbackOnly } from './lib/loopback.cjs';
import { signIn } from './lib/sign-in.cjs';

const BASE = process.env.BASE_URL || 'http://127.0.0.1:8080';
const N = Math.max(1, Number(process.argv[2] || 90));
loopbackOnly(BASE);
const json = { 'content-type': 'application/json', origin: BASE };
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

async function call(path, body, cookie, method = 'POST') {
  const res = await fetch(`${BASE}${path}`, {
    method,
    headers: { ...json, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

const username = `ccost_${Date.now().toString(36)}`;
const password = 'ChatCost@123';
const registered = await call('/api/register', {
  username,
  password,
  confirmPassword: password,
  email: `${username}@example.test`,
  firstName: 'Chat',
  lastName: 'Cost',
  phoneNumber: '',
  role: 'Army',
});
const { cookie: admin } = await signIn(BASE, 'admin', process.env.ADMIN_PASSWORD || 'Admin@12345', 'admin');
await call(`/api/users/${registered.user.id}/status`, { status: 'approved' }, admin, 'PATCH');
const { cookie } = await signIn(BASE, username, password);

const latencies = [];
let sessionId = null;
const before = cpuByComponent();
for (let i = 0; i < N; i++) {
  const started = performance.now();
  const body = await call(
    '/api/chat/message',
    { message: QUESTIONS[i % QUESTIONS.length], sessionId },
    cookie,
  );
  latencies.push(performance.now() - started);
  sessionId = body.sessionId;
}
const after = cpuByComponent();
const { per, total } = perOperation(before, after, N);
console.log(`${N} chat messages one after another`);
console.log(`latency ms: ${latencySummary(latencies)}`);
console.log('CPU ms per answer:', per);
console.log(`total ${total.toFixed(1)} ms → at most ${(2000 / total).toFixed(0)} answers/s on two cores`);
