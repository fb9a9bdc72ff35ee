import { Alert, Anchor, Badge, Button, Group, List, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  SANDBOX_LABEL,
  SandboxPayBody,
  type PaymentOrderView,
  type SandboxPaymentView,
} from '@qm/contracts/rest';
import { formatINR, toast, outcomeUnknown, errorMessage } from '@qm/ui';
import { IconAlertTriangle, IconFlask } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useState } from 'react';
import { sandboxPay, type SandboxCard, useRefreshWallet } from '../api';
import { formatCardNumber, formatExpiry, TEST_CARD_CVC, testCardExpiry } from '../cardFormat';
import { CheckoutExpiry } from './CheckoutExpiry';
import { PAYMENT_FAILED_TITLE, useVerifyPayment } from './useVerifyPayment';

const CardFields = SandboxPayBody.omit({ orderId: true });

/** Stripe's test cards, which the sandbox provider answers the same way. */
const TEST_CARDS = [
  { number: '4242 4242 4242 4242', outcome: 'succeeds' },
  { number: '4000 0000 0000 0002', outcome: 'is declined' },
  { number: '4000 0000 0000 9995', outcome: 'fails for insufficient funds' },
] as const;

export interface CheckoutProps {
  order: PaymentOrderView;
  onPaid: () => void;
  onCancel: () => void;
}

/**
 * The sandbox provider's checkout (the local default, no real money): card number, expiry and CVC go to
 * POST /api/sandbox/pay, whose answer is verified like any provider's proof.
 */
export function SandboxCheckout({ order, onPaid, onCancel }: CheckoutProps) {
  const form = useForm<SandboxCard>({
    mode: 'controlled',
    initialValues: { cardNumber: '', expiry: '', cvc: '' },
    validate: zod4Resolver(CardFields),
  });
  const verify = useVerifyPayment(onPaid);
  const refreshWallet = useRefreshWallet();
  // A payment already made for this order is verified again on retry, never paid a second time.
  const [proof, setProof] = useState<SandboxPaymentView | null>(null);

  // A refused proof (4xx) is dropped, so the next try pays again; after a lost answer it is kept.
  const verifyProof = (result: SandboxPaymentView) =>
    verify.mutate(result, {
      onError: (error) => {
        if (!outcomeUnknown(error)) setProof(null);
      },
    });

  const pay = useMutation({
    mutationFn: (card: SandboxCard) => sandboxPay(order.id, card),
    retry: false,
    onSuccess: (result) => {
      setProof(result);
      verifyProof(result);
    },
    onError: (error) => {
      toast({
        color: 'red',
        title: PAYMENT_FAILED_TITLE,
        message: errorMessage(error, 'The payment could not be completed. Please try again.'),
      });
      // A declined card fails the attempt at once: the history shows it as failed, with the reason.
      void refreshWallet();
    },
  });

  // A test card fills the whole card: its number, a future expiry and a CVC, ready to pay.
  const fillTestCard = (cardNumber: string) => {
    form.setValues({ cardNumber, expiry: testCardExpiry(), cvc: TEST_CARD_CVC });
    form.clearErrors();
  };

  const busy = pay.isPending || verify.isPending;
  const submit = form.onSubmit((card) => {
    if (proof) verifyProof(proof);
    else pay.mutate(card);
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Card payment">
      <Stack gap="md">
        <Alert
          color="orange"
          variant="light"
          icon={<IconFlask size={18} />}
          title={
            <Group gap="xs">
              <Badge color="orange" variant="filled" size="lg" tt="none" data-testid="sandbox-label">
                {SANDBOX_LABEL}
              </Badge>
            </Group>
          }
        >
          This is a test checkout: no card is charged. Use one of these test cards with any future expiry and
          any CVC:
          <TestCards onPick={fillTestCard} />
        </Alert>
        <Group justify="space-between">
          <Text c="dimmed">Amount to pay</Text>
          <Text fw={700} size="lg" data-testid="checkout-amount">
            {formatINR(order.amount)}
          </Text>
        </Group>
        <CheckoutExpiry expiresAt={order.expiresAt} />
        <TextInput
          label="Card number"
          placeholder="1234 1234 1234 1234"
          inputMode="numeric"
          autoComplete="cc-number"
          required
          data-autofocus
          {...form.getInputProps('cardNumber')}
          onChange={(event) => form.setFieldValue('cardNumber', formatCardNumber(event.currentTarget.value))}
        />
        <Group grow align="flex-start">
          <TextInput
            label="Expiry"
            placeholder="MM/YY"
            inputMode="numeric"
            autoComplete="cc-exp"
            maxLength={5}
            required
            {...form.getInputProps('expiry')}
            onChange={(event) =>
              form.setFieldValue('expiry', formatExpiry(event.currentTarget.value, form.values.expiry))
            }
          />
          <TextInput
            label="CVC"
            placeholder="123"
            inputMode="numeric"
            autoComplete="cc-csc"
            maxLength={4}
            required
            {...form.getInputProps('cvc')}
          />
        </Group>
        {pay.isError && (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertTriangle size={18} />}
            title={PAYMENT_FAILED_TITLE}
          >
            {errorMessage(pay.error, 'The payment could not be completed. Please try again.')}
          </Alert>
        )}
        {verify.isError && (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertTriangle size={18} />}
            title="Payment Verification Failed"
          >
            {errorMessage(verify.error, 'Please contact support if your wallet is not credited.')}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            Pay {formatINR(order.amount)}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The sandbox's test cards: picking one fills the whole card (number, a future expiry, a CVC). */
function TestCards({ onPick }: { onPick: (cardNumber: string) => void }) {
  return (
    <List size="sm" mt={6} spacing={2}>
      {TEST_CARDS.map((card) => (
        <List.Item key={card.number}>
          {/* In the alert's own text colour, underlined: the theme's link colour on the orange
              alert came to 4.31:1 in dark mode (WCAG AA asks 4.5:1). */}
          <Anchor
            component="button"
            type="button"
            size="sm"
            ff="monospace"
            c="inherit"
            underline="always"
            fw={600}
            onClick={() => onPick(card.number)}
            aria-label={`Use test card ${card.number}`}
          >
            {card.number}
          </Anchor>{' '}
          {card.outcome}
        </List.Item>
      ))}
    </List>
  );
}
