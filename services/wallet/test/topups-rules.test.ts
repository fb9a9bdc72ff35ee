import { WALLET_MESSAGES } from '@qm/contracts/rest';
import { ConfigError, GrpcStatus, parseConfig } from '@qm/platform';
import { z } from 'zod';
import { cardExpired, chargeCard, luhnValid } from '../src/domain/cards';
import { validTopUpAmount } from '../src/domain/topups';
import { topUpEnv, topUpSettings } from '../src/providers/config';

const card = { cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvc: '123' };
const now = new Date('2027-03-15T12:00:00Z');

function refusal(fn: () => unknown) {
  try {
    fn();
  } catch (err) {
    const e = err as { code: number; message: string };
    return { code: e.code, message: e.message };
  }
  return undefined;
}

describe('sandbox cards', () => {
  it("follows Stripe's test cards: 4242… is charged, …0002 declined, …9995 short of funds", () => {
    expect(refusal(() => chargeCard(card, now))).toBeUndefined();
    expect(refusal(() => chargeCard({ ...card, cardNumber: '4000-0000-0000-0002' }, now))).toEqual({
      code: GrpcStatus.FAILED_PRECONDITION,
      message: WALLET_MESSAGES.cardDeclined,
    });
    expect(refusal(() => chargeCard({ ...card, cardNumber: '4000000000009995' }, now))).toEqual({
      code: GrpcStatus.FAILED_PRECONDITION,
      message: WALLET_MESSAGES.cardInsufficientFunds,
    });
    // Any other Luhn-valid number is charged (5555 5555 5555 4444 is Stripe's Mastercard).
    expect(refusal(() => chargeCard({ ...card, cardNumber: '5555555555554444' }, now))).toBeUndefined();
  });

  it('checks the Luhn digit', () => {
    expect(luhnValid('4242424242424242')).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
    expect(luhnValid('79927398713')).toBe(true);
    expect(refusal(() => chargeCard({ ...card, cardNumber: '4242424242424243' }, now))?.message).toBe(
      WALLET_MESSAGES.cardNumberInvalid,
    );
  });

  it('takes a card as valid through the last day of its expiry month', () => {
    expect(cardExpired('03/27', new Date('2027-03-31T23:59:59Z'))).toBe(false);
    expect(cardExpired('03/27', new Date('2027-04-01T00:00:00Z'))).toBe(true);
    expect(cardExpired('12/26', now)).toBe(true);
    expect(refusal(() => chargeCard({ ...card, expiry: '02/27' }, now))).toEqual({
      code: GrpcStatus.FAILED_PRECONDITION,
      message: WALLET_MESSAGES.cardExpired,
    });
    expect(refusal(() => chargeCard({ ...card, expiry: '2/27' }, now))?.message).toBe(
      WALLET_MESSAGES.cardExpiryInvalid,
    );
    expect(refusal(() => chargeCard({ ...card, cvc: '12a' }, now))?.message).toBe(
      WALLET_MESSAGES.cardCvcInvalid,
    );
  });
});

describe('top-up amounts', () => {
  it('are whole paise from ₹100 to ₹1,00,000', () => {
    expect(validTopUpAmount(100_00)).toBe(100_00);
    expect(validTopUpAmount(100_000_00)).toBe(100_000_00);
    for (const bad of [99_99, 100_000_01, 100.5, Number.NaN])
      expect(refusal(() => validTopUpAmount(bad))?.message).toBe(WALLET_MESSAGES.topUpRange);
  });
});

describe('provider configuration', () => {
  const read = (env: Record<string, string>) =>
    topUpSettings({ ...parseConfig(topUpEnv, env), NODE_ENV: env.NODE_ENV ?? 'development' });
  const keys = { STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' };

  it('uses Stripe when both keys are set, else the sandbox', () => {
    expect(read({}).provider).toBe('sandbox');
    expect(read({ STRIPE_SECRET_KEY: 'sk_test_1' }).provider).toBe('sandbox');
    expect(read(keys).provider).toBe('stripe');
    expect(read({ ...keys, WALLET_PROVIDER: 'sandbox' }).provider).toBe('sandbox');
    expect(() => read({ WALLET_PROVIDER: 'stripe' })).toThrow(ConfigError);
  });

  it('requires a sandbox signing secret in production only', () => {
    expect(read({}).sandboxSecret.length).toBeGreaterThanOrEqual(32);
    expect(() => read({ NODE_ENV: 'production' })).toThrow(/SANDBOX_SIGNING_SECRET/);
    const secret = 'x'.repeat(40);
    expect(read({ NODE_ENV: 'production', SANDBOX_SIGNING_SECRET: secret }).sandboxSecret).toBe(secret);
    expect(() =>
      parseConfig({ ...topUpEnv, NODE_ENV: z.string() }, { SANDBOX_SIGNING_SECRET: 'short' }),
    ).toThrow(/SANDBOX_SIGNING_SECRET/);
  });
});
