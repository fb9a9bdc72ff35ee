import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eventually } from '@qm/testkit';
import type { Browser } from '@qm/testkit/src/identity-stack';
import { listProduct, type OrdersStack, startOrdersStack } from './stack';

// Fault flags (docs/FAULTS.md) read at run time from a flagd file shared by catalog and wallet: the
// purchase saga waits out an unreachable wallet and a slow catalog, and completes once they heal.
const dir = mkdtempSync(path.join(tmpdir(), 'qm-faults-'));
const flagFile = path.join(dir, 'flags.json');

function setFlags(flags: { walletUnreachable: boolean; catalogLatencyMs: number }): void {
  const flag = (variants: Record<string, boolean | number>, on: string) => ({
    state: 'ENABLED',
    variants,
    defaultVariant: on,
  });
  writeFileSync(
    flagFile,
    JSON.stringify({
      flags: {
        walletUnreachable: flag({ on: true, off: false }, flags.walletUnreachable ? 'on' : 'off'),
        catalogLatencyMs: flag({ none: 0, slow: 400 }, flags.catalogLatencyMs ? 'slow' : 'none'),
      },
    }),
  );
}

describe('purchases under fault flags', () => {
  let s: OrdersStack;
  let maker: Browser;
  let army: Browser;

  beforeAll(async () => {
    setFlags({ walletUnreachable: false, catalogLatencyMs: 0 });
    s = await startOrdersStack({
      catalog: { QM_FAULTS_FILE: flagFile },
      wallet: { QM_FAULTS_FILE: flagFile },
    });
    maker = (await s.user('Manufacturer')).as;
    army = (await s.user('Army', 10_000)).as;
  }, 120_000);
  afterAll(async () => {
    await s?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const product = (stock = 5) =>
    listProduct(maker, { name: 'Signal Flare', price: '100.00', stock, description: 'Red, 60 s' });
  const buy = (productId: number) =>
    army.post('/api/orders', { productId, quantity: 1, totalPrice: '100.00' });
  const orderOf = async (id: number) =>
    (await army.get('/api/orders/purchased?page=1&pageSize=20')).body.orders.find(
      (o: { id: number }) => o.id === id,
    );
  // The file is polled every 5 s; a flag is in force once the service that acts on it reads it so.
  // (Asked of the service, not guessed from its answers: on a loaded machine a read can take 400 ms
  // with no latency flag at all, and a purchase then ran before the flag did.)
  const FLIP_MS = 15_000;
  const flagsInForce = (walletUnreachable: boolean, catalogLatencyMs: number) =>
    eventually(
      async () =>
        (await s.wallet.rt.faults.on('walletUnreachable')) === walletUnreachable &&
        (await s.catalog.rt.faults.number('catalogLatencyMs')) === catalogLatencyMs,
      FLIP_MS,
    );
  const healed = async () => {
    setFlags({ walletUnreachable: false, catalogLatencyMs: 0 });
    await flagsInForce(false, 0);
  };

  it('an unreachable wallet leaves the order pending with its stock reserved; healed, it completes', async () => {
    const id = await product(5);
    setFlags({ walletUnreachable: true, catalogLatencyMs: 0 });
    await flagsInForce(true, 0);
    expect((await army.get('/api/wallet')).status).toBe(503);

    const res = await buy(id);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'pending' });
    expect((await maker.get(`/api/products/${id}`)).body.stock).toBe(4);

    await healed();
    await eventually(async () => (await orderOf(res.body.id))?.status === 'completed', 30_000);
    expect((await army.get('/api/wallet')).body.balance).toBe('9900.00');
  }, 90_000);

  it('a slow catalog slows the purchase by its latency on each call, and it still completes', async () => {
    const id = await product(5);
    setFlags({ walletUnreachable: false, catalogLatencyMs: 400 });
    try {
      await flagsInForce(false, 400);
      const started = Date.now();
      expect((await buy(id)).body).toMatchObject({ status: 'completed' });
      // Reserve and commit each wait 400 ms at the catalog.
      expect(Date.now() - started).toBeGreaterThanOrEqual(800);
    } finally {
      // Left slow, the catalog would slow every later call, the stack's shutdown included.
      await healed();
    }
  }, 90_000);
});
