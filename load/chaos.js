/* global __ENV, __VU */
// The chaos run's workload (docs/adr/015): every role at once while scripts/chaos.mjs
// kills processes. Not a benchmark: it writes an operation log that load/chaos-check.ts reads
// afterwards to prove that no money, stock, order or event was lost or duplicated.
//
//   make chaos                                  # starts a stack, runs this, kills, checks
//   CHAOS_VUS=20 CHAOS_DURATION=2m make chaos
//
// Each virtual user has one role by its number (ROLES below): buyers purchase (POST /api/orders),
// transfer to each other (POST /api/wallet/transfer with their PIN), top up through the sandbox, read
// their wallets and ask for a refund of about one completed purchase in five (docs/adr/028);
// manufacturers list products and read their sales; registrants register users that the
// administrator approves, and in about half their turns act as the administrator deciding the buyers'
// refund requests (approving most, rejecting some with a reason); visitors browse the catalogue and
// send contact messages; chatters talk to the assistant. Every money call has its own
// Idempotency-Key; the refund calls take none (the orders service allows one request per order and one
// decision per request), so an unanswered one is simply sent again later, as its user would.
//
// The operation log: one console line per call, `{"chaos":"invoke",...}` before it and
// `{"chaos":"end",...,"outcome"}` after, outcome ok (2xx), failed (a definite refusal: 4xx, or a
// connection refused, so nothing was sent) or unknown (timed out, reset, 5xx, or "still being processed":
// the call may or may not have taken effect). Users' sessions are logged as `{"chaos":"user"}` so
// that the checker can retry unknown calls as their caller. k6 writes console lines with
// --console-output (scripts/chaos.mjs); load/chaos/oplog.ts reads them back.
import http from 'k6/http';
import { fail, sleep } from 'k6';
import exec from 'k6/execution';
import { client, loopbackOnly, mailbox, step } from './lib/k6-api.js';
import { catalogPlan, totalPrice } from './lib/purchase-plan.ts';

const BASE = __ENV.BASE_URL || 'http://127.0.0.1:8080';
// With replicas (docs/adr/025), every gateway: the calls go round them, as a load balancer sends them.
const GATEWAYS = (__ENV.GATEWAY_URLS || BASE).split(',');
const MAILDEV = __ENV.MAILDEV_URL || 'http://127.0.0.1:1080';
const VUS = Math.max(10, Number(__ENV.CHAOS_VUS || 100));
const DURATION = __ENV.CHAOS_DURATION || '10m';
const ADMIN_PASSWORD = __ENV.ADMIN_PASSWORD || 'Admin@12345';
const THINK_SECONDS = Number(__ENV.THINK_SECONDS ?? 1);
/** A call not answered in this time is logged unknown: the client gave up, the server may not have. */
const CALL_TIMEOUT = __ENV.CHAOS_CALL_TIMEOUT || '10s';
const PASSWORD = 'Chaos@12345';
const PIN = '135790';
const PRODUCTS = 40;
/** A buyer asks for its money back for about one completed purchase in this many (docs/adr/028). */
const REFUND_ONE_IN = 5;
/** The share of the registrants' turns spent as the administrator deciding refund requests. */
const ADMIN_REFUND_SHARE = 0.5;
/** The share of the decided requests approved; the rest are rejected with a reason. */
const APPROVE_SHARE = 0.7;
/** An administrator decides a request open this long (ms): the last ones stay open, held, at the end. */
const REVIEW_AFTER_MS = 10_000;

/** Role of virtual user n (1-based): half buyers, the rest one each per ten. */
const ROLES = [
  'buyer',
  'buyer',
  'buyer',
  'buyer',
  'buyer',
  'maker',
  'registrant',
  'visitor',
  'contact',
  'chat',
];
const roleOf = (vu) => ROLES[(vu - 1) % ROLES.length];
const countOf = (role) =>
  Array.from({ length: VUS }, (_, i) => roleOf(i + 1)).filter((r) => r === role).length;

loopbackOnly(BASE, MAILDEV, ...GATEWAYS);
const api = client(BASE);
const mail = mailbox(MAILDEV);
const JSON_HEADERS = { 'content-type': 'application/json', origin: BASE };

export const options = {
  setupTimeout: '20m',
  scenarios: { chaos: { executor: 'constant-vus', vus: VUS, duration: DURATION } },
  // Failures are expected while processes die; the checker, not k6, judges the run.
  thresholds: {},
  summaryTrendStats: ['avg', 'med', 'p(95)', 'max'],
};

const emit = (record) => console.log(JSON.stringify({ chaos: record.chaos, ...record }));

const IN_PROGRESS = /A request with this Idempotency-Key is still being processed/;

/** outcome of an answer: ok, failed (a definite refusal: certainly no effect) or unknown. */
function outcomeOf(res) {
  if (res.status >= 200 && res.status < 300) return 'ok';
  // No answer at all is unknown, even what looks like a refused connection: k6 gives a refused dial
  // and a reset mid-answer (the request had arrived) the same code, 1212, and telling them apart by
  // the error's text still let resets through as "never sent". The retry decides instead.
  if (res.status === 0) return 'unknown';
  // Shed by the gateway's admission control before it was sent (docs/adr/026): certainly no effect.
  // The checker holds the claim to account: a money call counted failed must have moved nothing.
  if (res.status === 503 && res.headers['Retry-After']) return 'failed';
  if (res.status >= 500) return 'unknown';
  // ABORTED (409) under the same key, the services' idempotencyInProgress message (@qm/contracts:
  // k6 cannot import it; load/test/chaos-resolve.test.ts keeps the two in step): the first attempt
  // may still land.
  if (res.status === 409 && IN_PROGRESS.test(res.body || '')) return 'unknown';
  return 'failed';
}

let seq = 0;

/**
 * One logged call. `op` names the operation (purchase, transfer, create-order, verify-payment,
 * sandbox-pay, register, approve, refund-request, refund-list, refund-approve, refund-reject, browse,
 * contact, chat…); `money` ones carry a key and their user, a buyer's refund request its user.
 */
function call(op, method, path, body, { cookie, key, user, extra } = {}) {
  const id = `${exec.vu.idInTest}-${++seq}`;
  const base = GATEWAYS[seq % GATEWAYS.length];
  // The gateway it goes to is the page's origin (each replica answers on its own port here).
  const headers = { ...JSON_HEADERS, origin: base };
  if (cookie) headers.cookie = cookie;
  if (key) headers['idempotency-key'] = key;
  const params = {
    headers,
    tags: { endpoint: op },
    timeout: CALL_TIMEOUT,
    responseCallback: http.expectedStatuses({ min: 200, max: 499 }),
  };
  emit({ chaos: 'invoke', id, op, key, user, method, path, body, at: Date.now(), ...extra });
  const res =
    method === 'GET'
      ? http.get(`${base}${path}`, params)
      : http.request(method, `${base}${path}`, body === undefined ? null : JSON.stringify(body), params);
  const outcome = outcomeOf(res);
  let answer;
  try {
    answer = res.status > 0 && res.body && res.body.length < 4000 ? JSON.parse(res.body) : undefined;
  } catch {
    answer = undefined;
  }
  emit({
    chaos: 'end',
    id,
    op,
    outcome,
    status: res.status,
    error: res.error_code || undefined,
    errorText: res.error || undefined,
    at: Date.now(),
    // What the checker needs from an answer: the order, top-up order or payment it names.
    answer: answer && pick(answer),
  });
  return { res, outcome, answer };
}

function pick(a) {
  const out = {};
  for (const k of ['id', 'status', 'message', 'providerOrderId', 'providerPaymentId', 'providerSignature'])
    if (a[k] !== undefined && typeof a[k] !== 'object') out[k] = a[k];
  // An order's refund, as the refund calls answer it.
  if (a.refund && typeof a.refund.status === 'string') out.refundStatus = a.refund.status;
  return out;
}

// ---- setup ----------------------------------------------------------------------------------------

/** A registered, approved and signed-in user; its session is logged for the checker's retries. */
function member(run, prefix, i, role, admin) {
  const u = api.register(`${prefix}_${run}_${i}`, PASSWORD, role, `Chaos ${i}`);
  api.approve(admin, u);
  u.cookie = api.signIn(u.username, PASSWORD);
  emit({ chaos: 'user', id: u.id, username: u.username, cookie: u.cookie });
  return u;
}

/** Money through the sandbox: create-order → sandbox/pay → verify-payment, each call logged. */
function topUp(u, amount, key) {
  const order = call(
    'create-order',
    'POST',
    '/api/create-order',
    { amount },
    { cookie: u.cookie, key: `${key}:order`, user: u.id },
  );
  if (order.outcome !== 'ok') return order;
  const orderId = order.answer.id;
  const card = { orderId, cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' };
  const paid = call('sandbox-pay', 'POST', '/api/sandbox/pay', card, {
    cookie: u.cookie,
    user: u.id,
    extra: { orderId },
  });
  if (paid.outcome !== 'ok') return paid;
  const proof = {
    providerOrderId: paid.answer.providerOrderId,
    providerPaymentId: paid.answer.providerPaymentId,
    providerSignature: paid.answer.providerSignature,
  };
  return call('verify-payment', 'POST', '/api/verify-payment', proof, {
    cookie: u.cookie,
    key: `${key}:verify`,
    user: u.id,
    extra: { orderId },
  });
}

export function setup() {
  const run = Date.now().toString(36);
  const admin = api.signIn('admin', ADMIN_PASSWORD, 'admin');
  const makers = Array.from({ length: Math.max(2, countOf('maker')) }, (_, i) =>
    member(run, 'cmak', i, 'Manufacturer', admin),
  );
  const products = catalogPlan({ run, products: PRODUCTS, makers: makers.length, scarceEvery: 8 }).map(
    (p) => {
      const { maker, scarce, ...body } = p;
      const res = step(
        () => api.post('/api/products', body, { cookie: makers[maker].cookie }),
        201,
        `create ${p.name}`,
      );
      return { id: res.json('id'), price: p.price, stock: p.stock, scarce };
    },
  );
  const buyers = Array.from({ length: countOf('buyer') }, (_, i) => {
    const u = member(run, 'cbuy', i, 'Army', admin);
    const cookie = u.cookie;
    step(
      () => api.post('/api/wallet/setup-pin', { pin: PIN, confirmPin: PIN }, { cookie }),
      200,
      `setup-pin ${u.username}`,
    );
    const seen = mail.idsTo(u.email);
    step(() => api.post('/api/wallet/send-otp', {}, { cookie }), 200, `send-otp ${u.username}`);
    const otp = mail.codeTo(u.email, seen, 15);
    step(() => api.post('/api/wallet/verify-otp', { otp }, { cookie }), 200, `verify-otp ${u.username}`);
    const t = topUp(u, '20000', `setup-${run}-${u.id}`);
    if (t.outcome !== 'ok') fail(`setup top-up of ${u.username}: ${t.res.status} ${t.res.body}`);
    return { id: u.id, username: u.username, cookie };
  });
  const chatters = Array.from({ length: countOf('chat') }, (_, i) => member(run, 'cchat', i, 'Army', admin));
  // The market is for signed-in members: visitors browse with a session of their own.
  const visitors = Array.from({ length: countOf('visitor') }, (_, i) =>
    member(run, 'cvis', i, 'Army', admin),
  );
  emit({ chaos: 'ready', at: Date.now() });
  return {
    run,
    admin,
    makers: makers.map((m) => ({ id: m.id, cookie: m.cookie })),
    buyers,
    chatters: chatters.map((c) => ({ id: c.id, cookie: c.cookie })),
    visitors: visitors.map((c) => ({ id: c.id, cookie: c.cookie })),
    products,
  };
}

// ---- the roles ------------------------------------------------------------------------------------

let iteration = 0;
const key = (data) => `chaos-${data.run}-${__VU}-${iteration}`;
const nth = (list, i) => list[i % list.length];
const anyOf = (list) => list[Math.floor(Math.random() * list.length)];

/**
 * This buyer's completed purchases it will ask a refund for (each virtual user has its own copy of
 * the module's state): asked a few turns after the purchase, not at once.
 */
const refundsToAsk = [];

const REFUND_REASONS = [
  'The equipment arrived damaged',
  'Not as described',
  'Ordered the wrong quantity',
  'No longer needed by the unit',
];
const REJECT_REASONS = [
  'The equipment was used',
  'Outside the policy for this product',
  'No evidence of the damage',
];

function buyer(data) {
  const me = nth(data.buyers, Math.floor((__VU - 1) / ROLES.length));
  if (refundsToAsk.length && Math.random() < 0.3) return requestRefund(me);
  const roll = Math.random();
  if (roll < 0.4) {
    const p = Math.random() < 0.25 ? anyOf(data.products.filter((x) => x.scarce)) : anyOf(data.products);
    const quantity = 1 + Math.floor(Math.random() * Math.min(3, p.stock));
    const body = { productId: p.id, quantity, totalPrice: totalPrice(p.price, quantity) };
    const bought = call('purchase', 'POST', '/api/orders', body, {
      cookie: me.cookie,
      key: key(data),
      user: me.id,
    });
    if (bought.outcome === 'ok' && bought.answer?.status === 'completed' && Math.random() < 1 / REFUND_ONE_IN)
      refundsToAsk.push(bought.answer.id);
  } else if (roll < 0.6) {
    const others = data.buyers.filter((b) => b.id !== me.id);
    const to = anyOf(others.length ? others : data.buyers);
    const body = {
      receiverUsername: to.username,
      amount: ((1 + Math.floor(Math.random() * 999)) / 100).toFixed(2),
      pin: PIN,
    };
    call('transfer', 'POST', '/api/wallet/transfer', body, {
      cookie: me.cookie,
      key: key(data),
      user: me.id,
      extra: { to: to.id },
    });
  } else if (roll < 0.7) {
    topUp(me, String(100 + Math.floor(Math.random() * 900)), key(data));
  } else {
    const path = anyOf([
      '/api/wallet',
      '/api/transactions?page=1&pageSize=20',
      '/api/orders/purchased?page=1&pageSize=20',
    ]);
    call('read-own', 'GET', path, undefined, { cookie: me.cookie });
  }
}

/**
 * POST /api/orders/{id}/refund-request for the oldest purchase waiting (well within the 48-hour
 * window). Unanswered, it is asked again later; now and then an answered one is asked again, as a
 * double click would, which the orders service must refuse (409) without a second request.
 */
function requestRefund(me) {
  const orderId = refundsToAsk.shift();
  const asked = call(
    'refund-request',
    'POST',
    `/api/orders/${orderId}/refund-request`,
    { reason: anyOf(REFUND_REASONS) },
    { cookie: me.cookie, user: me.id },
  );
  if (asked.outcome === 'unknown' || (asked.outcome === 'ok' && Math.random() < 0.1))
    refundsToAsk.push(orderId);
}

/**
 * This administrator's decisions (per virtual user): those answered, of which one is now and then
 * decided again (the orders service must refuse it: 409), and those never answered, sent again.
 */
const decided = [];
const undecided = [];
/** Open requests the administrator's last list counted: newest first, so its last page has the oldest. */
let openSeen = 0;
const REFUND_PAGE = 32;

/**
 * The administrator's refund duty: one open request of the run's buyers from GET /api/admin/refunds
 * (the page of the oldest), open for REVIEW_AFTER_MS at least, approved or rejected with a reason
 * (PATCH /api/admin/refunds/{id}); or a decision sent again.
 */
function decideRefund(data) {
  let target;
  if (undecided.length && Math.random() < 0.5) target = undecided.shift();
  else if (decided.length && Math.random() < 0.1) {
    const d = anyOf(decided);
    target = { id: d.id, approve: !d.approve };
  } else {
    const search = encodeURIComponent(`cbuy_${data.run}_`);
    const page = Math.max(1, Math.ceil(openSeen / REFUND_PAGE));
    const list = call(
      'refund-list',
      'GET',
      `/api/admin/refunds?status=requested&search=${search}&page=${page}&pageSize=${REFUND_PAGE}`,
      undefined,
      { cookie: data.admin },
    );
    const orders = list.outcome === 'ok' ? list.res.json('orders') : null;
    if (list.outcome === 'ok') openSeen = Number(list.res.json('total')) || 0;
    const due = (Array.isArray(orders) ? orders : []).filter(
      (o) => o.refund && Date.now() - Date.parse(o.refund.requestedAt) >= REVIEW_AFTER_MS,
    );
    // The administrators share the queue by order id, as a team would; now and then one takes any
    // request, so that two may decide one at once (the second must be refused: 409).
    const admins = countOf('registrant');
    const mine = due.filter((o) => o.id % admins === Math.floor((__VU - 1) / ROLES.length) % admins);
    const pool = Math.random() < 0.9 ? mine : due;
    if (!pool.length) return;
    target = { id: anyOf(pool).id, approve: Math.random() < APPROVE_SHARE };
  }
  const body = target.approve
    ? { decision: 'approved' }
    : { decision: 'rejected', reason: anyOf(REJECT_REASONS) };
  const op = target.approve ? 'refund-approve' : 'refund-reject';
  const res = call(op, 'PATCH', `/api/admin/refunds/${target.id}`, body, { cookie: data.admin });
  if (res.outcome === 'unknown') undecided.push(target);
  else if (res.outcome === 'ok') decided.push(target);
}

function maker(data) {
  const me = nth(data.makers, Math.floor((__VU - 1) / ROLES.length));
  const path =
    Math.random() < 0.5 ? '/api/orders/sold?page=1&pageSize=20' : '/api/products?page=1&pageSize=20';
  call('read-own', 'GET', path, undefined, { cookie: me.cookie });
}

function registrant(data) {
  // The administrator who approves the registrations decides the refund requests too.
  if (Math.random() < ADMIN_REFUND_SHARE) return decideRefund(data);
  const username = `creg_${data.run}_${__VU}_${iteration}`;
  const body = {
    username,
    password: PASSWORD,
    confirmPassword: PASSWORD,
    email: `${username}@load.local`,
    firstName: 'Chaos',
    lastName: 'Registrant',
    phoneNumber: '',
    role: Math.random() < 0.5 ? 'Army' : 'Manufacturer',
  };
  const reg = call('register', 'POST', '/api/register', body);
  const id = reg.outcome === 'ok' && reg.res.json('user.id');
  if (id) call('approve', 'PATCH', `/api/users/${id}/status`, { status: 'approved' }, { cookie: data.admin });
}

function visitor(data) {
  const { cookie } = nth(data.visitors, Math.floor((__VU - 1) / ROLES.length));
  const p = anyOf(data.products);
  if (Math.random() < 0.5) call('browse', 'GET', `/api/products/${p.id}`, undefined, { cookie });
  else
    call('browse', 'GET', `/api/products?page=1&pageSize=20&q=${encodeURIComponent('Load')}`, undefined, {
      cookie,
    });
}

function contact(data) {
  call('contact', 'POST', '/api/contact', {
    fullName: 'Chaos Visitor',
    email: `visitor${__VU}@load.local`,
    subject: `Question ${data.run}-${__VU}-${iteration}`,
    message: 'Is this product still in stock?',
  });
}

const QUESTIONS = [
  'Show my orders',
  'Check wallet balance',
  'Latest transactions',
  'Military products',
  'my recent activity',
];

function chat(data) {
  const me = nth(data.chatters, Math.floor((__VU - 1) / ROLES.length));
  call(
    'chat',
    'POST',
    '/api/chat/message',
    { message: anyOf(QUESTIONS), sessionId: null },
    { cookie: me.cookie },
  );
  sleep(2); // the assistant allows 30 messages a minute per user
}

const ACTIONS = { buyer, maker, registrant, visitor, contact, chat };

export default function (data) {
  iteration++;
  ACTIONS[roleOf(__VU)](data);
  if (THINK_SECONDS > 0) sleep(THINK_SECONDS * (0.5 + Math.random()));
}
