import { Text } from '@mantine/core';
import { checkoutExpiryNote } from './expiry';

/** When this checkout expires unpaid (docs/product.md §2 Add Money), said before it happens. */
export function CheckoutExpiry({ expiresAt }: { expiresAt: string }) {
  return (
    <Text size="sm" c="dimmed" data-testid="checkout-expiry">
      {checkoutExpiryNote(expiresAt)}
    </Text>
  );
}
