import { randomUUID } from 'node:crypto';
import { waitForMail } from '@qm/testkit/src/maildev';
import { userAccount } from '../src/domain/ledger';
import { startWallet, type WalletHarness } from './service-harness';

/**
 * A transfer answers the sender's wallet and line from what its own steps wrote (the debit answers
 * the account it left; the insert, the lines it numbered), not by reading them back afterwards: two
 * commands fewer on every transfer. What it answers is what is stored.
 */
const PIN = '305172';
let w: WalletHarness;

beforeAll(async () => {
  w = await startWallet();
}, 60_000);

afterAll(async () => {
  await w?.stop();
});

/** The documents of the wallet's models `names` read one at a time while `run` runs. */
async function readsOf<T>(names: string[], run: () => Promise<T>) {
  const spies = names.map((name) => jest.spyOn(w.svc.rt.conn.model(name), 'findOne'));
  try {
    const answer = await run();
    return { answer, reads: spies.flatMap((spy, i) => spy.mock.calls.map(() => names[i]!)) };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

it("answers the sender's wallet and line as stored, without reading either back", async () => {
  const sender = w.user('answers');
  const receiver = w.user('answered');
  await w.topUp(sender, 500_00);
  await w.topUp(receiver, 100_00); // opens the receiver's wallet: a first transfer to them creates it
  await w.activatePin(sender, PIN);
  // A top-up's receipt reads the wallet it credited, from a consumer that may run late under load.
  for (const u of [sender, receiver]) await waitForMail(u.email, /^Receipt:/);
  const key = randomUUID();

  const { answer, reads } = await readsOf(['Account', 'HistoryLine'], () =>
    w.send(sender, receiver, 12_50, PIN, key),
  );

  // The sender's wallet and the receiver's are read before the first transfer; nothing after it.
  expect(reads).toEqual(['Account', 'Account']);
  const db = w.svc.rt.conn;
  const stored = await db.collection('accounts').findOne({ _id: userAccount(sender.userId) as never });
  const line = await db
    .collection('transactions')
    .findOne({ _id: `p2p:${sender.userId}:${key}:out` as never });
  expect(answer.wallet).toMatchObject({ balancePaise: 487_50, availablePaise: 487_50 });
  expect(answer.wallet!.balancePaise).toBe(stored!.balance);
  expect(answer.transaction).toMatchObject({
    id: line!.id,
    amountPaise: 12_50,
    status: expect.anything(),
    description: line!.description,
  });

  // The same key again is the same answer (stored with the transfer: docs/adr/044), not a second transfer.
  const again = await w.send(sender, receiver, 12_50, PIN, key);
  expect(again).toEqual(answer);

  // The sender's next transfer reads neither wallet: this process remembers both numbers. The debit
  // itself checks that the sender's is still open (docs/adr/044); the receiver is still a user the
  // directory knows, and only a deleted user's wallet closes (docs/adr/048).
  const next = await readsOf(['Account', 'HistoryLine'], () => w.send(sender, receiver, 1_00, PIN));
  expect(next.reads).toEqual([]);
  expect(next.answer.wallet).toMatchObject({ balancePaise: 486_50, id: answer.wallet!.id });
  expect(next.answer.transaction).toMatchObject({ senderWalletId: answer.wallet!.id });
}, 60_000);
