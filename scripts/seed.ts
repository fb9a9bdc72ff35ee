#!/usr/bin/env tsx
// `make seed`: demo data through the product's own REST API (never the databases), idempotent.
// Creates the demo accounts of the README (admin is ensured by the identity service itself),
// approves the ones meant to be approved, lists a handful of products for the manufacturer and
// tops the Army buyer's wallet up through the sandbox.
// Writes <QM_DATA_DIR>/seed-accounts.json so `make dev` can print the accounts.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const BASE = process.env.SEED_URL ?? 'http://127.0.0.1:8080';
const ADMIN_PASSWORD = process.env.ADMIN_PASSWORD ?? 'Admin@12345';

interface DemoAccount {
  username: string;
  password: string;
  role: 'Army' | 'Manufacturer' | 'Admin';
  approve: boolean;
  firstName: string;
  lastName: string;
  description: string;
}

export const DEMO_ACCOUNTS: DemoAccount[] = [
  {
    username: 'army_demo',
    password: 'Army@12345',
    role: 'Army',
    approve: true,
    firstName: 'Arjun',
    lastName: 'Rathore',
    description: 'approved Army buyer, ₹1,00,000 in the wallet',
  },
  {
    username: 'maker_demo',
    password: 'Maker@12345',
    role: 'Manufacturer',
    approve: true,
    firstName: 'Meera',
    lastName: 'Iyer',
    description: 'approved Manufacturer with demo products',
  },
  {
    username: 'pending_demo',
    password: 'Pending@12345',
    role: 'Army',
    approve: false,
    firstName: 'Pranav',
    lastName: 'Desai',
    description: 'registered, waiting for approval',
  },
];

const PRODUCTS = [
  {
    name: 'Night Vision Goggles NV-3',
    type: 'Equipment',
    price: '185000.00',
    stock: 24,
    description: 'Gen 3 image-intensified binocular goggles with helmet mount and 40° field of view.',
  },
  {
    name: 'Ballistic Helmet Mk II',
    type: 'Equipment',
    price: '42500.50',
    stock: 4,
    description: 'Aramid composite helmet rated NIJ IIIA with rail system and adjustable harness.',
  },
  {
    name: 'Light Patrol Vehicle LPV-4',
    type: 'Vehicle',
    price: '4850000.00',
    stock: 3,
    description: 'Four-seat 4x4 patrol vehicle with run-flat tyres and a roof weapon mount.',
  },
  {
    name: '5.56 mm Training Rounds (box of 500)',
    type: 'Ammunition',
    price: '9500.00',
    stock: 120,
    description: 'Reduced-energy marking cartridges for force-on-force training.',
  },
  {
    name: 'Tactical Radio TR-200',
    type: 'Other',
    price: '76000.00',
    stock: 0,
    description: 'Encrypted VHF/UHF handheld radio with 12-hour battery and GPS position reporting.',
  },
  {
    name: 'Designated Marksman Rifle DMR-7',
    type: 'Weapon',
    price: '325000.00',
    stock: 6,
    description: 'Semi-automatic 7.62 mm rifle with free-floating barrel and adjustable stock.',
  },
];

class Session {
  private cookie = '';
  async call<T = unknown>(method: string, url: string, body?: unknown): Promise<{ status: number; data: T }> {
    const res = await fetch(`${BASE}${url}`, {
      method,
      headers: {
        origin: BASE,
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...(this.cookie ? { cookie: this.cookie } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const set = res.headers.getSetCookie();
    if (set.length) this.cookie = set.map((c) => c.split(';')[0]).join('; ');
    const text = await res.text();
    return { status: res.status, data: (text ? JSON.parse(text) : undefined) as T };
  }
  async must<T = unknown>(method: string, url: string, body?: unknown): Promise<T> {
    const { status, data } = await this.call<T>(method, url, body);
    if (status >= 400) throw new Error(`${method} ${url} → ${status} ${JSON.stringify(data)}`);
    return data;
  }
}

async function waitForGateway(): Promise<void> {
  for (let i = 0; i < 60; i++) {
    try {
      if ((await fetch(`${BASE}/healthz`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`the gateway at ${BASE} is not answering; start the stack first (make dev)`);
}

async function main(): Promise<void> {
  await waitForGateway();
  const admin = new Session();
  await admin.must('POST', '/api/login', { username: 'admin', password: ADMIN_PASSWORD, portal: 'admin' });

  for (const a of DEMO_ACCOUNTS) {
    const reg = await new Session().call('POST', '/api/register', {
      username: a.username,
      password: a.password,
      confirmPassword: a.password,
      email: `${a.username}@quartermaster.local`,
      firstName: a.firstName,
      lastName: a.lastName,
      phoneNumber: '+91 98765 43210',
      role: a.role,
    });
    if (reg.status >= 400 && reg.status !== 409)
      throw new Error(`register ${a.username}: ${JSON.stringify(reg.data)}`);
    const users = await admin.must<{ id: number; username: string; status: string }[]>('GET', '/api/users');
    const user = users.find((u) => u.username.toLowerCase() === a.username);
    if (!user) throw new Error(`${a.username} is not listed after registering`);
    if (a.approve && user.status === 'pending') {
      await admin.must('PATCH', `/api/users/${user.id}/status`, { status: 'approved' });
    }
    console.log(
      `seed: ${a.username} (${a.role}) ${reg.status === 409 ? 'exists' : 'registered'}, ${a.approve ? 'approved' : 'pending'}`,
    );
  }

  const maker = new Session();
  await maker.must('POST', '/api/login', { username: 'maker_demo', password: 'Maker@12345' });
  const me = await maker.must<{ id: number }>('GET', '/api/user');
  // What the market's product cards show about the manufacturer.
  await maker.must('PATCH', '/api/user/profile', {
    firstName: 'Meera',
    lastName: 'Iyer',
    email: 'maker_demo@quartermaster.local',
    licenseNumber: 'MFG-2024-0042',
    yearsOfExperience: 15,
    address: 'Plot 14, Defence Industrial Corridor, Chennai',
  });
  const products = await maker.must<{ manufacturerId: number; name: string }[]>('GET', '/api/products');
  const mine = new Set(products.filter((p) => p.manufacturerId === me.id).map((p) => p.name));
  let created = 0;
  for (const p of PRODUCTS) {
    if (mine.has(p.name)) continue;
    await maker.must('POST', '/api/products', p);
    created++;
  }
  console.log(`seed: ${created} products created, ${mine.size} already listed`);

  await fundDemoBuyer();

  const dataDir = process.env.QM_DATA_DIR ?? path.resolve('.data');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(
    path.join(dataDir, 'seed-accounts.json'),
    JSON.stringify(
      [
        {
          username: 'admin',
          password: ADMIN_PASSWORD,
          role: 'Admin',
          description: 'administrator (sign in at /admin)',
        },
        ...DEMO_ACCOUNTS.map(({ username, password, role, description }) => ({
          username,
          password,
          role,
          description,
        })),
      ],
      null,
      2,
    ),
  );
}

/** What the demo buyer starts with, so purchases can be tried at once. */
const DEMO_BALANCE = '100000.00';

/**
 * Tops the demo buyer's empty wallet up through the sandbox checkout with Stripe's test card, as a
 * person would in the Add Money dialog. Where Stripe is configured there is no sandbox: left empty.
 */
async function fundDemoBuyer(): Promise<void> {
  const army = new Session();
  await army.must('POST', '/api/login', { username: 'army_demo', password: 'Army@12345' });
  const wallet = await army.must<{ balance: string }>('GET', '/api/wallet');
  if (wallet.balance !== '0.00') {
    console.log(`seed: army_demo's wallet holds ₹${wallet.balance}`);
    return;
  }
  const order = await army.must<{ id: string; provider: string }>('POST', '/api/create-order', {
    amount: Number(DEMO_BALANCE),
  });
  if (order.provider !== 'sandbox') {
    console.log(`seed: army_demo's wallet left empty (top-ups go through ${order.provider})`);
    return;
  }
  const proof = await army.must('POST', '/api/sandbox/pay', {
    orderId: order.id,
    cardNumber: '4242 4242 4242 4242',
    expiry: '12/34',
    cvc: '123',
  });
  await army.must('POST', '/api/verify-payment', proof);
  console.log(`seed: army_demo's wallet topped up with ₹${DEMO_BALANCE} through the sandbox`);
}

main().catch((err: unknown) => {
  console.error(`seed failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
