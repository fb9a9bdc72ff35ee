import { Button, Group, Loader, NumberInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { AddMoneyForm, type PaymentOrderView, WALLET_LIMITS } from '@qm/contracts/rest';
import { formatRupees, toast, useIdempotentAttempt } from '@qm/ui';
import { useMutation } from '@tanstack/react-query';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { lazy, Suspense, useState } from 'react';
import { createOrder, useRefreshWallet } from '../api';
import { WalletModal } from '../components/WalletModal';
import { SandboxCheckout } from './SandboxCheckout';

// Stripe's libraries are fetched only when a Stripe order needs them.
const StripeCheckout = lazy(() => import('./StripeCheckout'));

export interface AddMoneyDialogProps {
  opened: boolean;
  onClose: () => void;
}

/** Add Money (docs/product.md §2, §4): amount → the provider's checkout → verification → wallet credited. */
export function AddMoneyDialog({ opened, onClose }: AddMoneyDialogProps) {
  const [order, setOrder] = useState<PaymentOrderView | null>(null);
  const close = () => {
    setOrder(null);
    onClose();
  };
  return (
    <WalletModal opened={opened} onClose={close} title={order ? 'Pay with card' : 'Add Money'}>
      {/* Mounted per opening: a fresh form and a fresh idempotency attempt. */}
      {opened &&
        (order === null ? (
          <AmountStep onOrder={setOrder} onCancel={close} />
        ) : order.provider === 'stripe' ? (
          <Suspense fallback={<Loader size="sm" role="status" aria-label="Loading the checkout" />}>
            <StripeCheckout order={order} onPaid={close} onCancel={close} />
          </Suspense>
        ) : (
          <SandboxCheckout order={order} onPaid={close} onCancel={close} />
        ))}
    </WalletModal>
  );
}

type AmountValues = { amount: number | string };

/** The amount as the API's decimal string (NumberInput yields a number, or a string while typing). */
const amountText = (value: number | string) => String(value).trim();

function AmountStep({
  onOrder,
  onCancel,
}: {
  onOrder: (order: PaymentOrderView) => void;
  onCancel: () => void;
}) {
  const attempt = useIdempotentAttempt();
  const refreshWallet = useRefreshWallet();
  const form = useForm<AmountValues>({
    mode: 'controlled',
    initialValues: { amount: '' },
    validate: zod4Resolver(AddMoneyForm),
  });
  const order = useMutation({
    mutationFn: (amount: string) => createOrder(amount, attempt.keyFor({ amount })),
    // The client's one automatic retry (network, 5xx) carries the same Idempotency-Key: no second effect.
    onSuccess: () => {
      attempt.settle();
      // The attempt is a pending line from now on: the history shows it, also if the checkout is left.
      void refreshWallet();
    },
    onError: (error) => {
      attempt.settle(error);
      toast({ color: 'red', title: 'Error', message: 'Failed to initiate payment. Please try again.' });
    },
  });

  return (
    // The checkout opens from the call's own callback, which does not run once the dialog has closed.
    <form
      onSubmit={form.onSubmit(({ amount }) => order.mutate(amountText(amount), { onSuccess: onOrder }))}
      noValidate
    >
      <Stack gap="md">
        <NumberInput
          label="Amount"
          description={`From ${formatRupees(WALLET_LIMITS.topUpMinPaise / 100)} to ${formatRupees(WALLET_LIMITS.topUpMaxPaise / 100)}`}
          placeholder="Enter amount"
          leftSection="₹"
          min={WALLET_LIMITS.topUpMinPaise / 100}
          max={WALLET_LIMITS.topUpMaxPaise / 100}
          decimalScale={2}
          allowNegative={false}
          clampBehavior="none"
          hideControls
          inputMode="decimal"
          required
          data-autofocus
          {...form.getInputProps('amount')}
        />
        <Text size="xs" c="dimmed">
          You will enter your card details on the next screen.
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={order.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={order.isPending}>
            Proceed to Pay
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
