import { Alert, Button, Group, Input, Paper, Stack, Text, useComputedColorScheme } from '@mantine/core';
import { formatINR, toast } from '@qm/ui';
import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe } from '@stripe/stripe-js';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { CheckoutExpiry } from './CheckoutExpiry';
import type { CheckoutProps } from './SandboxCheckout';
import { PAYMENT_FAILED_TITLE, useVerifyPayment } from './useVerifyPayment';

/**
 * Stripe's checkout, loaded only when an order comes back with provider "stripe" (this module is its own
 * chunk, and Stripe.js is fetched from Stripe's host at that moment, as the product reference has it). The card is
 * confirmed with Elements; the server credits on Stripe's webhook or on the verify call, whichever is first.
 */
export default function StripeCheckout(props: CheckoutProps) {
  const { publishableKey } = props.order;
  const stripe = useMemo(() => (publishableKey ? loadStripe(publishableKey) : null), [publishableKey]);
  if (!stripe || !props.order.clientSecret) {
    return (
      <Alert color="red" icon={<IconAlertTriangle size={18} />} title={PAYMENT_FAILED_TITLE}>
        The payment provider is not configured. Please try again later.
      </Alert>
    );
  }
  return (
    <Elements stripe={stripe}>
      <StripeCardForm {...props} clientSecret={props.order.clientSecret} />
    </Elements>
  );
}

function StripeCardForm({ order, onPaid, onCancel, clientSecret }: CheckoutProps & { clientSecret: string }) {
  const stripe = useStripe();
  const elements = useElements();
  const verify = useVerifyPayment(onPaid);
  const [confirming, setConfirming] = useState(false);
  const [cardError, setCardError] = useState<string | null>(null);
  const dark = useComputedColorScheme('light') === 'dark';

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const card = elements?.getElement(CardElement);
    if (!stripe || !card) return;
    setConfirming(true);
    setCardError(null);
    const { error, paymentIntent } = await stripe.confirmCardPayment(clientSecret, {
      payment_method: { card },
    });
    setConfirming(false);
    if (error || !paymentIntent) {
      const message = error?.message ?? 'The payment could not be completed. Please try again.';
      setCardError(message);
      toast({ color: 'red', title: PAYMENT_FAILED_TITLE, message });
      return;
    }
    verify.mutate({ providerOrderId: order.id, providerPaymentId: paymentIntent.id, providerSignature: '' });
  };

  const busy = confirming || verify.isPending;
  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Card payment">
      <Stack gap="md">
        <Group justify="space-between">
          <Text c="dimmed">Amount to pay</Text>
          <Text fw={700} size="lg">
            {formatINR(order.amount)}
          </Text>
        </Group>
        <CheckoutExpiry expiresAt={order.expiresAt} />
        <Input.Wrapper label="Card details" error={cardError}>
          <Paper withBorder p="sm" radius="md" mt={4}>
            <CardElement
              options={{
                hidePostalCode: true,
                style: { base: { fontSize: '16px', color: dark ? '#e9ecef' : '#212529' } },
              }}
            />
          </Paper>
        </Input.Wrapper>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" loading={busy} disabled={!stripe}>
            Pay {formatINR(order.amount)}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
