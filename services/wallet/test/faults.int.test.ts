import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WALLET_MESSAGES } from '@qm/contracts/rest';
import { GrpcStatus } from '@qm/platform';
import { eventually } from '@qm/testkit';
import { PROVIDER_UNREACHABLE } from '../src/providers/provider';
import { cards, refusal, startWorld, users } from './topups-harness';

// The payment fault flags of docs/FAULTS.md, set as a process sets them: a flag file or QM_FAULTS.
describe('top-ups under payment fault flags', () => {
  it('paymentProviderUnreachable: checkouts and proofs answer UNAVAILABLE, crediting nothing until it is back', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'qm-pay-flags-'));
    const file = path.join(dir, 'flags.json');
    const unreachable = (on: boolean) =>
      writeFileSync(
        file,
        JSON.stringify({
          flags: {
            paymentProviderUnreachable: {
              state: 'ENABLED',
              variants: { on: true, off: false },
              defaultVariant: on ? 'on' : 'off',
            },
          },
        }),
      );
    unreachable(false);
    const w = await startWorld({ QM_FAULTS_FILE: file });
    const open = () => w.topUps.create(users.asha, { amountPaise: 500_00, idempotencyKey: '' });
    const openCode = () =>
      open().then(
        () => 0,
        (err: { code: number }) => err.code,
      );
    try {
      const order = await open();
      const proof = await w.topUps.sandboxPay(users.asha, { orderId: order.id, ...cards.ok });

      unreachable(true);
      // The file is polled every 5 s.
      await eventually(async () => (await openCode()) === GrpcStatus.UNAVAILABLE, 15_000);
      expect(await refusal(open())).toEqual({
        code: GrpcStatus.UNAVAILABLE,
        message: PROVIDER_UNREACHABLE.createOrder,
      });
      const verify = () => w.topUps.verifyPayment(users.asha, { ...proof, idempotencyKey: '' });
      expect(await refusal(verify())).toEqual({
        code: GrpcStatus.UNAVAILABLE,
        message: PROVIDER_UNREACHABLE.confirm,
      });
      expect((await w.money(users.asha)).balance).toBe(0);

      unreachable(false);
      await eventually(async () => (await openCode()) === 0, 15_000);
      await verify();
      expect((await w.money(users.asha)).balance).toBe(500_00);
    } finally {
      await w.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('paymentFailureRate 1 declines every good card, failing the attempt as a real decline does; 0 declines none', async () => {
    const declining = await startWorld({ QM_FAULTS: '{"paymentFailureRate":1}' });
    const normal = await startWorld({ QM_FAULTS: '{"paymentFailureRate":0}' });
    try {
      const order = await declining.topUps.create(users.asha, { amountPaise: 500_00, idempotencyKey: '' });
      for (let i = 0; i < 3; i++)
        expect(
          await refusal(declining.topUps.sandboxPay(users.asha, { orderId: order.id, ...cards.ok })),
        ).toEqual({
          code: GrpcStatus.FAILED_PRECONDITION,
          message: WALLET_MESSAGES.cardDeclined,
        });
      // A decline fails the attempt at once, in the provider's words; nothing is credited.
      expect(await declining.stores.topups.byProviderOrderId(order.id)).toMatchObject({
        status: 'failed',
        failureReason: WALLET_MESSAGES.cardDeclined,
      });

      const ok = await normal.topUps.create(users.asha, { amountPaise: 500_00, idempotencyKey: '' });
      expect(await normal.topUps.sandboxPay(users.asha, { orderId: ok.id, ...cards.ok })).toMatchObject({
        providerOrderId: ok.id,
      });
    } finally {
      await declining.stop();
      await normal.stop();
    }
  });
});
