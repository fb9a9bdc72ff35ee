import { WALLET_MESSAGES } from '@qm/contracts/rest';
import { creditKey, expiredReason, historyLineId } from '../src/domain/topups';
import { cards, refusal, startWorld, users, type World } from './topups-harness';

/**
 * docs/adr/025: the top-up sweep runs on every replica. Two of them sweeping the same top-ups at
 * once, while payments for the expiring checkouts still arrive, must expire each unpaid checkout
 * once, credit each payment once, and never leave a top-up both expired and paid without its
 * first line failed and its payment credited on the new one.
 */
jest.setTimeout(120_000);

const RUPEES = 100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let one: World;
let two: World;

beforeAll(async () => {
  one = await startWorld();
  // The second replica: its own connection, stores, ledger and providers on the same database.
  two = await startWorld({}, { join: one });
});
afterAll(async () => {
  await two?.stop();
  await one?.stop();
});

const who = users.asha;

it("two replicas' sweeps racing with late payments expire and credit each top-up once", async () => {
  const open = async (i: number) =>
    (await (i % 2 ? one : two).topUps.create(who, { amountPaise: (100 + i) * RUPEES, idempotencyKey: '' }))
      .id;
  // Never paid: they expire.
  const unpaid = await Promise.all(Array.from({ length: 8 }, (_, i) => open(i)));
  // Paid at the sandbox, never verified, webhook never delivered: the crediter died.
  const paidOnly = await Promise.all(Array.from({ length: 8 }, (_, i) => open(10 + i)));
  for (const [i, id] of paidOnly.entries())
    await (i % 2 ? one : two).topUps.sandboxPay(who, { orderId: id, ...cards.ok });
  // A crediter took the lease of two of them and died.
  for (const id of paidOnly.slice(0, 2)) {
    const t = (await one.stores.topups.byProviderOrderId(id))!;
    expect(await one.stores.topups.lease(t._id, 300)).not.toBeNull();
  }
  // Paid while the sweeps expire them: either the payment or the expiry comes first.
  const racing = await Promise.all(Array.from({ length: 16 }, (_, i) => open(30 + i)));

  const later = new Date(Date.now() + 31 * 60_000);
  const sweeps = [one, two, one, two].map((w) => w.topUps.sweep(later));
  // The sweeps expire them first to last; the buyer pays them last to first, one after another.
  // Where the two meet, a payment and an expiry race for the same checkout.
  const pay = (id: string, i: number) =>
    (i % 2 ? one : two).topUps
      .sandboxPay(who, { orderId: id, ...cards.ok })
      .then(() => 'paid' as const)
      .catch(async (err: unknown) => {
        expect(await refusal(Promise.reject(err))).toMatchObject({
          message: WALLET_MESSAGES.checkoutExpired,
        });
        return 'refused' as const;
      });
  const pays = (async () => {
    const out = new Array<'paid' | 'refused'>(racing.length);
    for (let i = racing.length - 1; i >= 0; i--) out[i] = await pay(racing[i]!, i);
    return out;
  })();
  const results = await Promise.all(sweeps);
  const paidRacing = await pays;
  await sleep(400);
  // Then both once more, for the payments that came after the first passes.
  results.push(...(await Promise.all([one.topUps.sweep(later), two.topUps.sweep(later)])));

  const { topups, history, transfers } = one.stores;
  let credited = 0;
  let everExpired = 0;
  for (const id of [...unpaid, ...paidOnly, ...racing]) {
    const t = (await topups.byProviderOrderId(id))!;
    const first = (await history.byKey(historyLineId(t._id)))!;
    const paid = paidOnly.includes(id) || paidRacing[racing.indexOf(id)] === 'paid';
    if (!paid) {
      expect([id, t.status, first.status, first.failureReason]).toEqual([
        id,
        'expired',
        'failed',
        expiredReason(30),
      ]);
      everExpired++;
      continue;
    }
    // Paid: completed once, by one ledger transfer keyed by its payment, on its line.
    expect([id, t.status]).toEqual([id, 'completed']);
    const transfer = (await transfers.byKey(creditKey('sandbox', t.providerPaymentId!)))!;
    expect([transfer.state, transfer.amount, t.transferId]).toEqual(['posted', t.amount, transfer._id]);
    expect((await history.byKey(t.lineId))!.status).toBe('completed');
    credited += t.amount;
    if (t.lineId !== first._id) {
      // Expired before its payment came: the first line failed, the credit is on the new one.
      expect([id, first.status, first.failureReason]).toEqual([id, 'failed', expiredReason(30)]);
      everExpired++;
    }
  }
  // Each checkout that expired was counted once, across every pass of both replicas.
  expect(results.reduce((s, r) => s + r.expired, 0)).toBe(everExpired);
  // The money: every payment credited once, and nothing else.
  const money = await one.money(who);
  expect([money.balance, money.entriesSum]).toEqual([credited, credited]);
  expect(money.entries).toBe(paidOnly.length + paidRacing.filter((p) => p === 'paid').length);
  expect(money.clearing).toBe(-credited);
});

it('a payment after a failure whose line a dead process left open fails that line and credits its own', async () => {
  const order = await one.topUps.create(who, { amountPaise: 222 * RUPEES, idempotencyKey: '' });
  const t = (await one.stores.topups.byProviderOrderId(order.id))!;
  // The card was declined and the process failing the top-up died before failing its line.
  expect(await one.stores.topups.fail(t._id, 'failed', WALLET_MESSAGES.cardDeclined)).not.toBeNull();
  const before = await one.money(who);
  // Another card pays it on the other replica; the page's proof credits it.
  const proof = await two.topUps.sandboxPay(who, { orderId: order.id, ...cards.ok });
  const { line } = await two.topUps.verifyPayment(who, { ...proof, idempotencyKey: '' });
  await Promise.all([one.topUps.sweep(), two.topUps.sweep()]);

  expect([line._id, line.status, line.amount]).toEqual([
    `${historyLineId(t._id)}:late`,
    'completed',
    222 * RUPEES,
  ]);
  expect(await one.stores.history.byKey(historyLineId(t._id))).toMatchObject({
    status: 'failed',
    failureReason: WALLET_MESSAGES.cardDeclined,
  });
  expect(await one.stores.topups.byId(t._id)).toMatchObject({ status: 'completed', lineClosed: true });
  expect((await one.money(who)).balance).toBe(before.balance + 222 * RUPEES);
});
