import { randomBytes } from 'node:crypto';
import { ORDERS_SUBJECTS } from '@qm/contracts/events';
import { longDateTime, type OwnWalletView } from '@qm/contracts/rest';
import { createMailer, type EventEnvelope, recordHandledNow } from '@qm/platform';
import { INFRA, lastEventOn, testLog } from '@qm/testkit';
import type { Browser, Registered } from '@qm/testkit/src/identity-stack';
import { mailsTo, waitForMail } from '@qm/testkit/src/maildev';
import type { Connection } from 'mongoose';
import { createOrderMails } from '../src/app/order-mails';
import type { UserFacts } from '../src/domain/order';
import { orderMailConsumers } from '../src/events/consumers';
import { createOrderStore } from '../src/store/orders';
import { listProduct, type OrdersStack, startOrdersStack } from './stack';

/**
 * A completed order's mails (docs/adr/012): the buyer's confirmation and the seller's sale notice,
 * each sent once per orders.order.completed event whoever delivers it and however often; none for an
 * order that did not complete.
 */
jest.setTimeout(120_000);

const CONFIRMATION = /^Order #\d+ confirmed: /;
const SALE = /^You sold /;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let s: OrdersStack;
let conn: Connection;
let as: Record<'maker' | 'army', Browser>;
let who: Record<'maker' | 'army', Registered>;

beforeAll(async () => {
  s = await startOrdersStack();
  conn = s.orders.rt.conn as Connection;
  ({ as, who } = await s.users({ maker: ['Manufacturer', 0], army: ['Army', 10_000] }));
}, 120_000);
afterAll(() => s?.stop());

const product = (price: string) =>
  listProduct(as.maker, {
    name: `Night Scope ${randomBytes(2).toString('hex')}`,
    price,
    stock: 10,
    description: 'Gen 3',
  });

const mailsMatching = async (address: string, subject: RegExp) =>
  (await mailsTo(address)).filter((m) => subject.test(m.subject));

/** The completed event of the order, read back from the stream. */
async function completedEventOf(orderId: number): Promise<EventEnvelope> {
  const event = await lastEventOn<{ id: number }>('QM_ORDERS', ORDERS_SUBJECTS.completed);
  expect(event.data.id).toBe(orderId);
  return event;
}

/** The mail consumers as another replica runs them: its own mailer and stores, the same database. */
function replica(durables: OrdersStack['mailDurables']) {
  const mailer = createMailer({
    smtpUrl: INFRA.SMTP_URL,
    from: 'Quartermaster <test@qm.local>',
    log: testLog(),
  });
  const facts = (r: Registered, firstName: string): UserFacts => ({
    id: r.id,
    username: r.username,
    firstName,
    lastName: '',
    email: r.email,
    phoneNumber: '',
    role: '',
    status: 'approved',
    isAdmin: false,
  });
  const users = [facts(who.army, 'Gate'), facts(who.maker, 'Gate')];
  const mails = createOrderMails({
    orders: createOrderStore(conn),
    partners: { user: async (id) => users.find((u) => u.id === id) ?? null },
    mailer,
    log: testLog(),
    refundRequestsTo: s.refundRequestsTo,
  });
  const consumers = orderMailConsumers({
    conn,
    log: testLog(),
    mails,
    confirmationDurable: durables.confirmation,
    saleNoticeDurable: durables.saleNotice,
    refundMailDurablePrefix: durables.refundPrefix,
  });
  return { consumers, close: () => mailer.close() };
}

it('mails the buyer a confirmation and the seller a sale notice, once each, with the order in them', async () => {
  const id = await product('1250.50');
  const res = await as.army.post('/api/orders', { productId: id, quantity: 2, totalPrice: '2501.00' });
  expect(res.status).toBe(201);
  const orderId = res.body.id as number;

  const confirmation = await waitForMail(who.army.email, CONFIRMATION);
  expect(confirmation.subject).toMatch(new RegExp(`^Order #${orderId} confirmed: Night Scope \\w+$`));
  expect(confirmation.text).toContain('Your order is complete: ₹2,501.00 has been paid from your wallet.');
  for (const line of [`Order: #${orderId}`, 'Quantity: 2', 'Unit price: ₹1,250.50', 'Total: ₹2,501.00'])
    expect(confirmation.text).toContain(line);
  expect(confirmation.text).toContain(`Seller: Gate Maker (${who.maker.username})`);
  expect(confirmation.text).toMatch(/Completed: \d{1,2} \w+ \d{4} at \d{1,2}:\d{2} [ap]m IST/);
  expect(confirmation.html).toContain('<br>Quantity: 2<br>');

  const sale = await waitForMail(who.maker.email, SALE);
  expect(sale.subject).toMatch(new RegExp(`^You sold 2 × Night Scope \\w+ \\(order #${orderId}\\)$`));
  // The release time it names is the one the wallet holds the proceeds until (docs/adr/028).
  const { heldProceeds } = (await as.maker.get('/api/wallet')).body as OwnWalletView;
  const held = heldProceeds.find((p) => p.reference === `order-${orderId}`)!;
  expect(sale.text).toContain(
    `Gate Soldier (${who.army.username}) bought your product: ₹2,501.00 is held while the buyer may ask ` +
      `for a refund, and reaches your wallet's balance on ${longDateTime(held.releaseAt)}.`,
  );
  expect(sale.text).toContain('Unit price: ₹1,250.50');

  await sleep(1500);
  expect(await mailsMatching(who.army.email, CONFIRMATION)).toHaveLength(1);
  expect(await mailsMatching(who.maker.email, SALE)).toHaveLength(1);
  // Nobody else is told: the buyer gets no sale notice, the seller no confirmation.
  expect(await mailsMatching(who.army.email, SALE)).toHaveLength(0);
  expect(await mailsMatching(who.maker.email, CONFIRMATION)).toHaveLength(0);
});

it('mails an order this process completed without reading it back: the saga kept it as it wrote it', async () => {
  const id = await product('20.00');
  const reads: unknown[] = [];
  conn.set('debug', (collection: string, method: string, query: Record<string, unknown>) => {
    if (collection === 'orders' && method === 'findOne') reads.push(query);
  });
  try {
    const res = await as.army.post('/api/orders', { productId: id, quantity: 1, totalPrice: '20.00' });
    expect(res.status).toBe(201);
    const subject = new RegExp(`#${res.body.id}\\b`);
    expect((await waitForMail(who.army.email, subject)).text).toContain('Total: ₹20.00');
    expect((await waitForMail(who.maker.email, subject)).text).toContain('Unit price: ₹20.00');
    // Read back, the order was one findOne per mail.
    expect(reads.filter((q) => (q as { _id?: unknown })._id === res.body.id)).toEqual([]);
  } finally {
    conn.set('debug', false);
  }
});

it('mails neither again when the event is delivered again, to two replicas at once', async () => {
  const id = await product('10.00');
  const res = await as.army.post('/api/orders', { productId: id, quantity: 1, totalPrice: '10.00' });
  expect(res.status).toBe(201);
  const subject = new RegExp(`#${res.body.id}\\b`);
  await waitForMail(who.army.email, subject);
  await waitForMail(who.maker.email, subject);
  const event = await completedEventOf(res.body.id as number);
  // A copy comes after the ack wait at the soonest, when the first delivery's record is long written.
  await recordHandledNow(conn);
  const replicas = [replica(s.mailDurables), replica(s.mailDurables)];
  try {
    await Promise.all(
      replicas.flatMap((r) =>
        r.consumers
          .filter((c) => c.filterSubjects.includes(ORDERS_SUBJECTS.completed))
          .map((c) => c.handle(event, ORDERS_SUBJECTS.completed)),
      ),
    );
    await sleep(1000);
    expect((await mailsTo(who.army.email)).filter((m) => subject.test(m.subject))).toHaveLength(1);
    expect((await mailsTo(who.maker.email)).filter((m) => subject.test(m.subject))).toHaveLength(1);
  } finally {
    replicas.forEach((r) => r.close());
  }
});

it('mails nothing for an order that did not complete', async () => {
  const before = (await mailsTo(who.army.email)).length;
  const id = await product('9000.00');
  // More than the buyer has: the order is cancelled, no money moves.
  const res = await as.army.post('/api/orders', { productId: id, quantity: 1, totalPrice: '9000.00' });
  expect(res.status).toBe(409);
  const cancelled = await conn.collection('orders').findOne({ productId: id });
  expect(cancelled?.status).toBe('cancelled');
  // Even an event naming it (as a forged or misrouted one would) mails nobody.
  const r = replica({
    confirmation: `orders-confirmation-none-${randomBytes(4).toString('hex')}`,
    saleNotice: `orders-sale-notice-none-${randomBytes(4).toString('hex')}`,
    refundPrefix: `orders-refund-none-${randomBytes(4).toString('hex')}`,
  });
  const event: EventEnvelope = {
    id: randomBytes(8).toString('hex'),
    type: ORDERS_SUBJECTS.completed,
    occurredAt: new Date().toISOString(),
    data: { id: cancelled!._id },
  };
  try {
    for (const c of r.consumers.slice(0, 2)) await c.handle(event, ORDERS_SUBJECTS.completed);
    await sleep(1500);
    expect(await mailsTo(who.army.email)).toHaveLength(before);
    expect(await mailsMatching(who.maker.email, new RegExp(`#${String(cancelled!._id)}\\b`))).toHaveLength(0);
  } finally {
    r.close();
  }
});

describe('refund mails (docs/adr/028)', () => {
  const decide = (orderId: number, body: Record<string, unknown>) =>
    s.admin.patch(`/api/admin/refunds/${orderId}`, body);

  async function refundable(price: string): Promise<number> {
    const id = await product(price);
    const res = await as.army.post('/api/orders', {
      productId: id,
      quantity: 2,
      totalPrice: `${Number(price) * 2}.00`,
    });
    expect(res.status).toBe(201);
    const orderId = res.body.id as number;
    const asked = await as.army.post(`/api/orders/${orderId}/refund-request`, {
      reason: 'Both scopes fogged',
    });
    expect(asked.status).toBe(201);
    return orderId;
  }

  it('tells the administrators of a request, then the buyer and the seller of an approval, once each', async () => {
    const orderId = await refundable('40.00');
    const request = await waitForMail(
      s.refundRequestsTo,
      new RegExp(`^Refund requested for order #${orderId}$`),
    );
    expect(request.text).toContain(
      `Gate Soldier (${who.army.username}) asked for a refund of ₹80.00 for order #${orderId}.`,
    );
    for (const line of [`Order: #${orderId}`, 'Quantity: 2', 'Total: ₹80.00', 'Reason: Both scopes fogged'])
      expect(request.text).toContain(line);
    expect(request.text).toContain(`Seller: Gate Maker (${who.maker.username})`);
    expect(request.text).toContain('Admin → Refunds');

    expect((await decide(orderId, { decision: 'approved' })).status).toBe(200);
    const buyer = await waitForMail(
      who.army.email,
      new RegExp(`^Your refund for order #${orderId} is approved$`),
    );
    expect(buyer.text).toContain('Your refund is approved: ₹80.00 is back in your wallet.');
    const seller = await waitForMail(who.maker.email, new RegExp(`^Order #${orderId} was refunded$`));
    expect(seller.text).toContain(
      'the sale’s held proceeds of ₹80.00 were returned to them'.replace('’', "'"),
    );
    expect(seller.text).toContain("The 2 units are back in your product's stock if it is still listed.");

    await sleep(1500);
    const about = new RegExp(`#${orderId}\\b`);
    expect((await mailsTo(s.refundRequestsTo)).filter((m) => about.test(m.subject))).toHaveLength(1);
    // The confirmation and the approval: nothing more.
    expect(await mailsMatching(who.army.email, about)).toHaveLength(2);
    expect(await mailsMatching(who.maker.email, about)).toHaveLength(2);
  });

  it('tells both of a rejection with its reason, and the seller when the proceeds arrive', async () => {
    const orderId = await refundable('15.00');
    await waitForMail(s.refundRequestsTo, new RegExp(`#${orderId}$`));
    expect((await decide(orderId, { decision: 'rejected', reason: 'Opened and used' })).status).toBe(200);
    const buyer = await waitForMail(
      who.army.email,
      new RegExp(`^Your refund for order #${orderId} was rejected$`),
    );
    expect(buyer.text).toContain('The payment of ₹30.00 stays with the seller.');
    expect(buyer.text).toContain('Reason: Opened and used');
    const seller = await waitForMail(
      who.maker.email,
      new RegExp(`^The refund request for order #${orderId} was rejected$`),
    );
    const order = await conn.collection('orders').findOne({ _id: orderId as never });
    expect(seller.text).toContain(
      `The buyer's refund request was rejected: the sale's ₹30.00 reaches your wallet's balance on ${longDateTime(
        (order!.refundableUntil as Date).toISOString(),
      )}.`,
    );
    expect(seller.text).toContain('Reason given: Opened and used');
  });

  it('mails no decision again when its event is delivered again, to two replicas at once', async () => {
    const orderId = await refundable('12.00');
    expect((await decide(orderId, { decision: 'approved' })).status).toBe(200);
    const about = new RegExp(`#${orderId}\\b`);
    await waitForMail(who.army.email, new RegExp(`^Your refund for order #${orderId}`));
    await waitForMail(who.maker.email, new RegExp(`^Order #${orderId} was refunded`));
    await waitForMail(s.refundRequestsTo, about);
    const requested = await lastEventOn<{ id: number }>('QM_ORDERS', ORDERS_SUBJECTS.refundRequested);
    const approved = await lastEventOn<{ id: number }>('QM_ORDERS', ORDERS_SUBJECTS.refundApproved);
    expect([requested.data.id, approved.data.id]).toEqual([orderId, orderId]);
    await recordHandledNow(conn);
    const replicas = [replica(s.mailDurables), replica(s.mailDurables)];
    try {
      await Promise.all(
        replicas.flatMap((r) =>
          r.consumers.flatMap((c) =>
            (
              [
                [requested, ORDERS_SUBJECTS.refundRequested],
                [approved, ORDERS_SUBJECTS.refundApproved],
              ] as const
            )
              .filter(([, subject]) => c.filterSubjects.includes(subject))
              .map(([event, subject]) => c.handle(event, subject)),
          ),
        ),
      );
      await sleep(1000);
      expect(await mailsMatching(s.refundRequestsTo, about)).toHaveLength(1);
      expect(await mailsMatching(who.army.email, about)).toHaveLength(2);
      expect(await mailsMatching(who.maker.email, about)).toHaveLength(2);
    } finally {
      replicas.forEach((r) => r.close());
    }
  });
});
