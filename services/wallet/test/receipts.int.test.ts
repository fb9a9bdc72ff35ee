import { randomBytes } from 'node:crypto';
import { WALLET_SUBJECTS } from '@qm/contracts/events';
import { createMailer, type EventEnvelope, RetryLater } from '@qm/platform';
import { eventually, INFRA, lastEventOn, testLog } from '@qm/testkit';
import { deleteMailsTo, mailsTo, waitForMail } from '@qm/testkit/src/maildev';
import type { Connection } from 'mongoose';
import { createReceipts } from '../src/app/receipts';
import { topUpReceiptConsumer } from '../src/events/consumers';
import { createAccountStore } from '../src/store/accounts';
import { createTopUpStore } from '../src/store/topups';
import { startWallet, type TestUser, type WalletHarness } from './service-harness';

/**
 * A credited top-up's receipt (docs/adr/012): mailed from the wallet.topup.credited event the
 * ledger announces with the credit, once per event whoever delivers it and however often.
 */
jest.setTimeout(60_000);

const RECEIPT = /^Receipt: /;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let wallet: WalletHarness;
let conn: Connection;

beforeAll(async () => {
  wallet = await startWallet({ OUTBOX_RELAY_MS: '200' });
  conn = wallet.svc.rt.conn as Connection;
});
afterAll(async () => wallet?.stop());

/** The event the wallet published for the user's latest credited top-up, read back from the stream. */
async function creditedEventOf(u: TestUser): Promise<EventEnvelope> {
  const event = await lastEventOn<{ userId: number }>('QM_WALLET', WALLET_SUBJECTS.topUpCredited);
  expect(event.data.userId).toBe(u.userId);
  return event;
}

/** A consumer of the receipts as another replica runs it: its own stores and mailer, one database. */
function replica(u: TestUser, durable: string) {
  const mailer = createMailer({
    smtpUrl: INFRA.SMTP_URL,
    from: 'Quartermaster <test@qm.local>',
    log: testLog(),
  });
  const receipts = createReceipts({
    topups: createTopUpStore(conn),
    accounts: createAccountStore(conn),
    directory: {
      byId: async (id) =>
        id === u.userId
          ? {
              ...u,
              id: u.userId,
              firstName: u.username,
              lastName: 'Test',
              phoneNumber: '',
              role: 'Army',
              status: 'approved',
              isAdmin: false,
            }
          : null,
      byUsername: async () => null,
      close: () => undefined,
    },
    mailer,
    log: testLog(),
  });
  return {
    consumer: topUpReceiptConsumer({ conn, log: testLog(), durable, receipts }),
    close: () => mailer.close(),
  };
}

it('mails the user one receipt with the amount, the payment reference and the new balance', async () => {
  const u = wallet.user('receipt');
  await deleteMailsTo(u.email);
  await wallet.topUp(u, 123_456);
  const mail = await waitForMail(u.email, RECEIPT);
  expect(mail.subject).toBe('Receipt: ₹1,234.56 added to your Quartermaster wallet');
  expect(mail.text).toContain('Amount: ₹1,234.56');
  expect(mail.text).toMatch(/Payment reference: sbx_pay_\w+/);
  expect(mail.text).toContain('Paid with: Card (sandbox)');
  expect(mail.text).toContain('Wallet balance now: ₹1,234.56');
  expect(mail.text).toMatch(/Credited: \d{1,2} \w+ \d{4} at \d{1,2}:\d{2} [ap]m IST/);
  expect(mail.html).toContain('<br>Amount: ₹1,234.56<br>');
  // A second top-up: a second receipt, with the balance after it.
  await wallet.topUp(u, 10_000);
  await eventually(async () => ((await mailsTo(u.email)).length === 2 ? true : undefined));
  const latest = await waitForMail(u.email, /₹100\.00/);
  expect(latest.text).toContain('Wallet balance now: ₹1,334.56');
  await sleep(1500);
  expect((await mailsTo(u.email)).filter((m) => RECEIPT.test(m.subject))).toHaveLength(2);
});

it('mails no second receipt when the event is delivered again, to this replica or another', async () => {
  const u = wallet.user('again');
  await deleteMailsTo(u.email);
  await wallet.topUp(u, 50_000);
  await waitForMail(u.email, RECEIPT);
  const event = await creditedEventOf(u);
  // Redelivered to the service's own consumer, twice at once, after it mailed.
  const replicas = [replica(u, wallet.receiptDurable), replica(u, wallet.receiptDurable)];
  try {
    await Promise.all(replicas.map((r) => r.consumer.handle(event, WALLET_SUBJECTS.topUpCredited)));
    await sleep(1000);
    expect(await mailsTo(u.email)).toHaveLength(1);
  } finally {
    replicas.forEach((r) => r.close());
  }
});

it('two replicas handed the same event at once mail it once', async () => {
  const u = wallet.user('pair');
  await deleteMailsTo(u.email);
  await wallet.topUp(u, 75_000);
  await waitForMail(u.email, RECEIPT);
  const event = await creditedEventOf(u);
  // A durable that has not seen the event yet: both replicas try to mail it; the claim lets one.
  const durable = `receipt-pair-${randomBytes(4).toString('hex')}`;
  const replicas = [replica(u, durable), replica(u, durable)];
  try {
    const outcomes = await Promise.allSettled(
      replicas.map((r) => r.consumer.handle(event, WALLET_SUBJECTS.topUpCredited)),
    );
    // One mails it; the other is told the event is in hand (the stream brings it back later, when
    // it finds it done), or finds it done already.
    for (const [i, o] of outcomes.entries()) {
      if (o.status === 'fulfilled') continue;
      expect(String(o.reason)).toMatch(/being handled by another/);
      await replicas[i]!.consumer.handle(event, WALLET_SUBJECTS.topUpCredited);
    }
    await sleep(1000);
    expect(await mailsTo(u.email)).toHaveLength(2);
  } finally {
    replicas.forEach((r) => r.close());
  }
});

it("mails no receipt for a top-up that is someone else's or was never credited", async () => {
  const u = wallet.user('none');
  await deleteMailsTo(u.email);
  const order = await wallet.as(u, () =>
    wallet.client.createTopUp({ amountPaise: 20_000, idempotencyKey: '' }),
  );
  const topUp = (await createTopUpStore(conn).byProviderOrderId(order.id))!;
  const r = replica(u, `receipt-none-${randomBytes(4).toString('hex')}`);
  const event = (data: object): EventEnvelope => ({
    id: randomBytes(8).toString('hex'),
    type: WALLET_SUBJECTS.topUpCredited,
    occurredAt: new Date().toISOString(),
    data,
  });
  try {
    // Not credited: it comes back later (a wait, not a failure: the stream redelivers it soon).
    const early = r.consumer.handle(
      event({ userId: u.userId, topUpId: topUp._id }),
      WALLET_SUBJECTS.topUpCredited,
    );
    await expect(early).rejects.toBeInstanceOf(RetryLater);
    await expect(early).rejects.toThrow(`top-up ${topUp._id} is not completed yet`);
    // Another user's id on it: nothing.
    await r.consumer.handle(
      event({ userId: u.userId + 1, topUpId: topUp._id }),
      WALLET_SUBJECTS.topUpCredited,
    );
    await sleep(500);
    expect(await mailsTo(u.email)).toHaveLength(0);
  } finally {
    r.close();
  }
});
