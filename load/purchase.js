/* global __ENV, __VU */
// k6 load test of purchases (docs/architecture.md §8): 50 virtual users, each an approved Army buyer with money,
// buying from many products of a few manufacturers (POST /api/orders with an Idempotency-Key, a
// tenth retried with the same key), reading their purchases (GET /api/orders/purchased) and
// products (GET /api/products/{id}), from loopback. Target: purchase p95 ≤ 300 ms end to end (the
// answer comes after the whole saga: reserve → hold → pay → commit). Then the ledger must balance.
//
//   AUTH_RATE_LIMIT_SCALE=100 make dev                      # sign-ins would answer 429
//   npm run bench:purchase                                 # judged by ratios (load/k6-ratios.mjs), then system:check
//   VUS=5 DURATION=20s PRODUCTS=40 .tools/bin/k6 run load/purchase.js   # a quick try
//
// setup() registers MAKERS manufacturers and VUS buyers, approves them as admin, signs each in once
// (the virtual users reuse the session cookies), lists PRODUCTS products through the API
// (load/lib/purchase-plan.ts: every SCARCE_EVERY-th has 1 to 3 units, the rest ample stock) and
// tops each buyer up through the sandbox: ₹100,000, but every tenth buyer only ₹100. So some
// purchases are refused "Insufficient stock" (or above the stock left) or "Insufficient wallet
// balance": honest answers of a busy market, counted in purchase_outcomes, not failures. Each
// iteration is one action followed by THINK_SECONDS of think time (default 1). p50 is `med`, p95
// `p(95)` of http_req_duration{endpoint:purchase}.
import { check, sleep } from 'k6';
import { Counter } from 'k6/metrics';
import { probe as sendProbe, probeOptions, probeSequence as sendSequence } from './lib/k6-probe.js';
import { client, loopbackOnly, must } from './lib/k6-api.js';
import { catalogPlan, purchaseOutcome, totalPrice } from './lib/purchase-plan.ts';

const BASE = __ENV.BASE_URL || 'http://127.0.0.1:8080';
const VUS = Math.max(1, Number(__ENV.VUS || 50));
const MAKERS = Math.max(1, Number(__ENV.MAKERS || 4));
const PRODUCTS = Math.max(2, Number(__ENV.PRODUCTS || 200));
const SCARCE_EVERY = Math.max(2, Number(__ENV.SCARCE_EVERY || 20));
const ADMIN_PASSWORD = __ENV.ADMIN_PASSWORD || 'Admin@12345';
const THINK_SECONDS = Number(__ENV.THINK_SECONDS ?? 1);
const PASSWORD = 'LoadTest@12345';
/** Share of purchases aimed at a scarce product, so that some race for the last units. */
const SCARCE_SHARE = 0.25;
/** What a purchase may answer without the run failing (purchaseOutcome tells which are fine). */
const PURCHASE_ANSWERS = [201, 400, 409, 503];

loopbackOnly(BASE);
const { post, get, signIn, register, approve, topUp } = client(BASE);

const outcomes = new Counter('purchase_outcomes');
const PROBE = probeOptions(VUS, __ENV.DURATION || '60s');

export const options = {
  setupTimeout: '15m',
  scenarios: {
    purchase: { executor: 'constant-vus', vus: VUS, duration: __ENV.DURATION || '60s' },
    ...PROBE.scenarios,
  },
  summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
  // The latency budget is a ratio to the bare-update probe of the same run, judged by
  // load/k6-ratios.mjs; these thresholds only make k6 report each endpoint on its own.
  thresholds: {
    checks: ['rate>0.99'],
    ...PROBE.thresholds,
    'http_req_duration{endpoint:purchase,expected_response:true}': ['p(95)<60000'],
    'http_reqs{endpoint:purchase,status:503}': ['count>=0'],
    'http_req_duration{endpoint:purchase-retry}': ['p(95)<1000'],
    'http_req_duration{endpoint:purchased}': ['p(95)<1000'],
    'http_req_duration{endpoint:product}': ['p(95)<1000'],
    'purchase_outcomes{outcome:completed}': ['count>0'],
    'purchase_outcomes{outcome:pending}': ['count>=0'],
    'purchase_outcomes{outcome:out-of-stock}': ['count>=0'],
    'purchase_outcomes{outcome:insufficient-balance}': ['count>=0'],
    'purchase_outcomes{outcome:unexpected}': ['count>=0'],
  },
};

export function setup() {
  const run = Date.now().toString(36);
  const admin = signIn('admin', ADMIN_PASSWORD, 'admin');
  const makers = Array.from({ length: MAKERS }, (_, i) =>
    register(`mload_${run}_${i}`, PASSWORD, 'Manufacturer', `Maker ${i}`),
  );
  const buyers = Array.from({ length: VUS }, (_, i) =>
    register(`oload_${run}_${i}`, PASSWORD, 'Army', `Buyer ${i}`),
  );
  for (const u of [...makers, ...buyers]) approve(admin, u);

  for (const m of makers) m.cookie = signIn(m.username, PASSWORD);
  const products = catalogPlan({ run, products: PRODUCTS, makers: MAKERS, scarceEvery: SCARCE_EVERY }).map(
    (p) => {
      const { maker, scarce, ...body } = p;
      const res = must(
        post('/api/products', body, { cookie: makers[maker].cookie }),
        201,
        `create ${p.name}`,
      );
      return { id: res.json('id'), price: p.price, stock: p.stock, scarce };
    },
  );

  buyers.forEach((b, i) => {
    b.cookie = signIn(b.username, PASSWORD);
    // One buyer in ten (the fifth, so that a 5-VU try has one) can afford only a purchase or two.
    const amount = i % 10 === 4 ? '100' : '100000';
    must(topUp(b.cookie, amount, `setup-${run}-${b.id}`), 200, `top-up ${b.username}`);
  });
  return { run, buyers: buyers.map((b) => b.cookie), products };
}

let iteration = 0;
let lastPurchase = null;

/** A product: a scarce one SCARCE_SHARE of the time, else any with ample stock. */
function pickProduct(products) {
  const scarce = products.filter((p) => p.scarce);
  const pool = scarce.length && Math.random() < SCARCE_SHARE ? scarce : products.filter((p) => !p.scarce);
  return pool[Math.floor(Math.random() * pool.length)];
}

function purchase(data, cookie) {
  const product = pickProduct(data.products);
  const quantity = 1 + Math.floor(Math.random() * Math.min(3, product.stock));
  const body = { productId: product.id, quantity, totalPrice: totalPrice(product.price, quantity) };
  const key = `${data.run}-${__VU}-${iteration}`;
  const res = post('/api/orders', body, { cookie, key, endpoint: 'purchase', expect: PURCHASE_ANSWERS });
  const outcome = purchaseOutcome(res.status, res.body);
  outcomes.add(1, { outcome });
  if (!check(res, { 'purchase answered as a market does': () => outcome !== 'unexpected' }))
    console.warn(`purchase ${JSON.stringify(body)}: ${res.status} ${res.body}`);
  const first = res.status === 201 ? { id: res.json('id') } : { message: res.json('message') };
  lastPurchase = { body, key, status: res.status, outcome, ...first };
}

/** A client retrying a purchase whose answer it lost: the same key and body, the same order. */
function retryPurchase(cookie) {
  const { body, key, status, outcome, id, message } = lastPurchase;
  const again = post('/api/orders', body, {
    cookie,
    key,
    endpoint: 'purchase-retry',
    expect: PURCHASE_ANSWERS,
  });
  check(again, {
    // A shed answer (503, ADR 026) says the call never ran, so it neither gives nor contradicts an outcome.
    'retry answers the first outcome': (r) =>
      outcome === 'shed' ||
      purchaseOutcome(r.status, r.body) === 'shed' ||
      (r.status === status && (status === 201 ? r.json('id') === id : r.json('message') === message)),
  });
}

/** The probe scenarios' iterations (load/lib/k6-probe.js). */
export const probe = () => sendProbe(THINK_SECONDS);
export const probeSequence = () => sendSequence(THINK_SECONDS);

export default function (data) {
  const cookie = data.buyers[(__VU - 1) % data.buyers.length];
  const roll = Math.random();
  iteration++;
  if (roll < 0.7) {
    if (lastPurchase && Math.random() < 0.1) retryPurchase(cookie);
    else purchase(data, cookie);
  } else if (roll < 0.85) {
    const res = get('/api/orders/purchased?page=1&pageSize=20', cookie, 'purchased');
    check(res, { purchases: (r) => r.status === 200 && Array.isArray(r.json('orders')) });
  } else {
    const p = data.products[Math.floor(Math.random() * data.products.length)];
    const res = get(`/api/products/${p.id}`, cookie, 'product');
    check(res, { product: (r) => r.status === 200 && r.json('id') === p.id });
  }
  if (THINK_SECONDS > 0) sleep(THINK_SECONDS * (0.5 + Math.random()));
}
