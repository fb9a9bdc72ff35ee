import { randomUUID } from 'node:crypto';
import { WALLET_MESSAGES } from '@qm/contracts/rest';
import { GrpcStatus } from '@qm/platform';
import { userAccount } from '../src/domain/ledger';
import { outcome, startWallet, type TestUser, type WalletHarness } from './service-harness';

/**
 * A P2P transfer's Idempotency-Key (docs/adr/044): the transfer recorded under the key is the
 * request's record, with no idempotency record beside it. The same request again answers as the
 * first time, also while the first is still running; another receiver or amount is refused naming
 * it; the PIN is checked on every request.
 */
const PIN = '640218';
let w: WalletHarness;
let sender: TestUser;
let receiver: TestUser;
let other: TestUser;

beforeAll(async () => {
  w = await startWallet();
  sender = w.user('keys');
  receiver = w.user('keyed');
  other = w.user('unkeyed');
  await w.topUp(sender, 500_00);
  await w.topUp(receiver, 100_00);
  await w.topUp(other, 100_00);
  await w.activatePin(sender, PIN);
}, 60_000);

afterAll(async () => {
  await w?.stop();
});

const send = (key: string, to: TestUser, amountPaise: number, pin = PIN) =>
  w.send(sender, to, amountPaise, pin, key);

const balance = async (u: TestUser) =>
  (await w.svc.rt.conn.collection('accounts').findOne({ _id: userAccount(u.userId) as never }))!
    .balance as number;

it('answers a repeat as the first time, without an idempotency record, after the balance moved', async () => {
  const key = randomUUID();
  const first = await send(key, receiver, 10_00);
  await send(randomUUID(), other, 1_00);
  const before = await balance(sender);

  const again = await send(key, receiver, 10_00);

  expect(again).toEqual(first);
  expect(await balance(sender)).toBe(before);
  const records = await w.svc.rt.conn
    .collection('idempotency_keys')
    .countDocuments({ _id: { $regex: `^transfer:${sender.userId}:` } as never });
  expect(records).toBe(0);
});

it('moves the money once when the same request arrives many times at once, and answers each the same', async () => {
  const key = randomUUID();
  const [payer, payee] = [await balance(sender), await balance(receiver)];

  const answers = await Promise.all(Array.from({ length: 12 }, () => outcome(send(key, receiver, 3_00))));
  const done = await Promise.all(Array.from({ length: 12 }, () => send(key, receiver, 3_00)));

  expect(answers).toEqual(Array.from({ length: 12 }, () => ({ code: 0, message: '' })));
  expect(new Set(done.map((a) => JSON.stringify(a))).size).toBe(1);
  expect(done[0]!.wallet!.balancePaise).toBe(payer - 3_00);
  expect([await balance(sender), await balance(receiver)]).toEqual([payer - 3_00, payee + 3_00]);
});

it('refuses the key for another amount or receiver, naming what differs, and moves nothing', async () => {
  const key = randomUUID();
  await send(key, receiver, 2_00);
  const before = await balance(sender);

  expect(await outcome(send(key, receiver, 2_01))).toEqual({
    code: GrpcStatus.FAILED_PRECONDITION,
    message: WALLET_MESSAGES.idempotencyMismatch(['amount']),
  });
  expect(await outcome(send(key, other, 2_01))).toEqual({
    code: GrpcStatus.FAILED_PRECONDITION,
    message: WALLET_MESSAGES.idempotencyMismatch(['amount', 'receiverUsername']),
  });
  expect(await balance(sender)).toBe(before);
});

it('checks the PIN of a repeat: a wrong one is refused as wrong, not answered', async () => {
  const key = randomUUID();
  await send(key, receiver, 1_00);

  const wrong = await outcome(send(key, receiver, 1_00, '000000'));

  expect(wrong).toEqual({ code: GrpcStatus.INVALID_ARGUMENT, message: WALLET_MESSAGES.wrongPin(4) });
});
