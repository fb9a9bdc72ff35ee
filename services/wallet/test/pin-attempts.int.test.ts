import crypto, { randomUUID } from 'node:crypto';
import { WALLET_MESSAGES } from '@qm/contracts/rest';
import { GrpcStatus, OTP_MESSAGES } from '@qm/platform';
import { userAccount } from '../src/domain/ledger';
import { outcome, startWallet, type TestUser, type WalletHarness } from './service-harness';

/**
 * Attempt limits (docs/adr/009): 100 guesses sent at once through the wallet's gRPC server, the right one late
 * among them. Whatever arrives together, at most five are compared (every other answer is the
 * exhausted / locked refusal, given before any hashing), and the right one is refused once the five
 * are used up. Before the fix every guess read the count before any was counted: all 100 were
 * compared and the right one was accepted.
 */
const PIN = '924680';
const RIGHT_AT = 80;
let w: WalletHarness;

beforeAll(async () => {
  w = await startWallet();
}, 60_000);

afterAll(async () => {
  await w?.stop();
});

/** `n` wrong values of six digits, none equal to `right`, with `right` at RIGHT_AT. */
function guesses(right: string, n = 100): string[] {
  const wrong = Array.from({ length: n }, (_, i) => String((Number(right) + 1 + i * 7919) % 1_000_000))
    .map((g) => g.padStart(6, '0'))
    .filter((g) => g !== right)
    .slice(0, n - 1);
  return [...wrong.slice(0, RIGHT_AT), right, ...wrong.slice(RIGHT_AT)];
}

const pinDoc = (u: TestUser) => w.svc.rt.conn.collection('pins').findOne({ _id: u.userId as never });

it('the PIN-confirmation code: of 100 guesses at once at most 5 are compared and the right one, late, is refused', async () => {
  const u = w.user('otpburst');
  const code = await w.pinCode(u, PIN);
  const all = guesses(code);
  const verify = (otp: string) => outcome(w.as(u, () => w.client.verifyPinOtp({ otp })));

  const answers = await Promise.all(all.map(verify));

  const exhausted = { code: GrpcStatus.RESOURCE_EXHAUSTED, message: OTP_MESSAGES.locked };
  const compared = answers.filter((a) => a.code !== exhausted.code || a.message !== exhausted.message);
  expect(compared.length).toBeLessThanOrEqual(5);
  // The wrong ones compared are told how many tries are left, each count once (the fifth: exhausted).
  expect(compared.map((a) => a.message).sort()).toEqual(
    [1, 2, 3, 4].map((left) => OTP_MESSAGES.wrong(left)).sort(),
  );
  expect(answers[RIGHT_AT]).toEqual(exhausted);
  expect((await pinDoc(u))?.otp?.attempts).toBe(5);

  // The code is spent: the right one alone is refused too, and the PIN was never set.
  expect(await verify(code)).toEqual(exhausted);
  expect(await w.as(u, () => w.client.getPinStatus({}))).toEqual({ isPinSetup: false });
}, 60_000);

describe('the transfer PIN', () => {
  const isLocked = (a: { code: number; message: string }) =>
    a.code === GrpcStatus.RESOURCE_EXHAUSTED && a.message.startsWith('Too many incorrect PIN attempts.');

  /** A transfer of ₹1 with `pin`, as its answer's code and message. */
  const transfer = (sender: TestUser, receiver: TestUser, pin: string) =>
    outcome(
      w.as(sender, () =>
        w.client.transfer({
          receiverUsername: receiver.username,
          amountPaise: 1_00,
          pin,
          idempotencyKey: randomUUID(),
        }),
      ),
    );
  const ok = { code: 0, message: '' };

  async function burst(sender: TestUser, receiver: TestUser) {
    const send = (pin: string) => transfer(sender, receiver, pin);
    const answers = await Promise.all(guesses(PIN).map(send));
    return { answers, send };
  }

  const balance = async (u: TestUser) =>
    (await w.svc.rt.conn.collection('accounts').findOne({ _id: userAccount(u.userId) as never }))?.balance;

  it('of 100 PINs at once at most 5 are compared; the right one, late, is refused (423) and nothing moves', async () => {
    const [sender, receiver] = [w.user('pinburst'), w.user('pinpayee')];
    await w.topUp(sender, 500_00);
    await w.activatePin(sender, PIN);
    // This process remembers the PIN it was told; a wrong one first makes it forget, so every PIN
    // of the burst is compared the slow way, each after its count.
    expect(await transfer(sender, receiver, '000000')).toEqual({
      code: GrpcStatus.INVALID_ARGUMENT,
      message: WALLET_MESSAGES.wrongPin(4),
    });

    const { answers, send } = await burst(sender, receiver);

    const compared = answers.filter((a) => !isLocked(a));
    expect(compared.length).toBeLessThanOrEqual(4);
    expect(compared.map((a) => [a.code, a.message]).sort()).toEqual(
      [1, 2, 3].map((left) => [GrpcStatus.INVALID_ARGUMENT, WALLET_MESSAGES.wrongPin(left)]).sort(),
    );
    expect(isLocked(answers[RIGHT_AT]!)).toBe(true);
    const doc = await pinDoc(sender);
    expect(doc?.failures).toBe(5);
    expect(new Date(doc?.lockedUntil).getTime()).toBeGreaterThan(Date.now() + 14 * 60_000);

    // Locked: the right PIN alone is refused too; not a paisa moved.
    expect(isLocked(await send(PIN))).toBe(true);
    expect(await balance(sender)).toBe(500_00);
  }, 60_000);

  it('with the PIN known to the process (the fast path of ADR 009) the limit holds the same', async () => {
    const [sender, receiver] = [w.user('pinfast'), w.user('pinfastpayee')];
    await w.topUp(sender, 500_00);
    await w.activatePin(sender, PIN);
    // A right PIN first: the process remembers it and answers it without a write.
    expect(await transfer(sender, receiver, PIN)).toEqual(ok);

    const again = await burst(sender, receiver);

    // The right one may be taken by the fast path only when its read saw no slot reserved: it is
    // then ordered before every wrong one, which still leaves at most 5 answers that compared.
    const compared = again.answers.filter((a) => !isLocked(a));
    expect(compared.length).toBeLessThanOrEqual(5);
    expect(compared.filter((a) => a.code === GrpcStatus.INVALID_ARGUMENT).length).toBeLessThanOrEqual(4);
    const moved = again.answers.filter((a) => a.code === 0).length;
    expect(moved).toBeLessThanOrEqual(1);
    expect(isLocked(await again.send(PIN))).toBe(true);
    expect(await balance(sender)).toBe(500_00 - (1 + moved) * 1_00);
  }, 60_000);

  it('a PIN chosen on this process passes its first transfer without a second hash; a wrong one is hashed and forgets it', async () => {
    const [sender, receiver] = [w.user('pinchosen'), w.user('pinchosenpayee')];
    await w.topUp(sender, 500_00);
    await w.activatePin(sender, PIN);
    const hashes = jest.spyOn(crypto, 'scrypt');
    try {
      expect(await transfer(sender, receiver, PIN)).toEqual(ok);
      expect(hashes).not.toHaveBeenCalled();
      expect(await transfer(sender, receiver, '000000')).toEqual({
        code: GrpcStatus.INVALID_ARGUMENT,
        message: WALLET_MESSAGES.wrongPin(4),
      });
      expect(hashes).toHaveBeenCalledTimes(1);
      expect(await transfer(sender, receiver, PIN)).toEqual(ok);
      expect(hashes).toHaveBeenCalledTimes(2);
    } finally {
      hashes.mockRestore();
    }
    expect(await balance(sender)).toBe(498_00);
  }, 60_000);
});
