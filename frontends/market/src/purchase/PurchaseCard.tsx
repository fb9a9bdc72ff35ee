import { Alert, Badge, Button, Card, Divider, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { ORDER_MESSAGES, type WalletView } from '@qm/contracts/rest';
import { formatINR, StockIndicator } from '@qm/ui';
import {
  IconAlertTriangle,
  IconCircleCheck,
  IconPackageOff,
  IconShoppingCart,
  IconWallet,
} from '@tabler/icons-react';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { Product } from '../api';
import { TYPE_COLORS } from '../components/ProductCard';
import { walletBalanceQuery } from '../orders/api';
import { QuantityStepper, type QuantityValue } from './QuantityStepper';
import { canPay, clampQuantity, exceedsBalance, orderTotal, type PurchasePhase } from './rules';
import { usePurchase } from './usePurchase';

const PAY_LABELS: Record<PurchasePhase, string> = {
  idle: 'Pay Now',
  failed: 'Pay Now',
  processing: ORDER_MESSAGES.processing,
  success: ORDER_MESSAGES.paymentSuccessful,
};

const PAY_ICONS: Record<PurchasePhase, ReactNode> = {
  idle: <IconShoppingCart size={18} />,
  failed: <IconShoppingCart size={18} />,
  processing: <Loader size={16} color="currentColor" />,
  success: <IconCircleCheck size={18} />,
};

/**
 * The "Complete Your Purchase" card (docs/product.md §2). Mounted with the product id as its key, so the quantity
 * starts at 1 again when the product changes.
 */
export function PurchaseCard({ product }: { product: Product }) {
  const wallet = useQuery(walletBalanceQuery());
  const { phase, failure, pay } = usePurchase();
  const [input, setInput] = useState<QuantityValue>(1);
  const [note, setNote] = useState<string | undefined>();
  // What was bought stays on screen for the 2 s before /orders, while stock and balance show what is left.
  const [bought, setBought] = useState<{ quantity: number; total: string } | null>(null);

  const done = phase === 'success';
  const outOfStock = product.stock < 1 && !done;
  // The stock may fall under the chosen quantity when the product is read again.
  const quantity = done && bought ? bought.quantity : input === '' ? 0 : clampQuantity(input, product.stock);
  const total = done && bought ? bought.total : orderTotal(product.price, quantity);
  const balance = wallet.data?.availableBalance;
  const busy = phase === 'processing' || done;
  // No warning while the quantity is being retyped (no total yet): Pay Now is disabled meanwhile anyway;
  // none once paid either (the balance shown is then what is left after this purchase).
  const insufficient =
    wallet.isSuccess && !outOfStock && !busy && total !== undefined && exceedsBalance(total, balance);
  const enabled = canPay({
    productLoaded: true,
    walletLoaded: wallet.isSuccess,
    stock: product.stock,
    quantity,
    total,
    balance,
    busy,
  });

  return (
    <Card withBorder radius="md" padding="lg" data-testid="purchase-card">
      <Stack gap="md">
        <Title order={1} size="h2">
          Complete Your Purchase
        </Title>
        {/* The name across the card (not wrapped around the type badge), the badges below it. */}
        <Title order={2} size="h3" style={{ overflowWrap: 'anywhere' }}>
          {product.name}
        </Title>
        {product.description && (
          <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
            {product.description}
          </Text>
        )}
        <Group gap="xs">
          <Badge color={TYPE_COLORS[product.type]} variant="light">
            {product.type}
          </Badge>
          <StockIndicator stock={product.stock} />
        </Group>
        <Divider />
        <Line label="Price per unit">
          <Text fw={700} size="lg">
            {formatINR(product.price)}
          </Text>
        </Line>
        {outOfStock ? (
          <Alert color="red" variant="light" title="Out of Stock" icon={<IconPackageOff size={18} />}>
            This product is currently out of stock. Check back later.
          </Alert>
        ) : (
          <>
            <Line label="Quantity">
              <QuantityStepper
                value={done && bought ? bought.quantity : input}
                stock={product.stock}
                onChange={setInput}
                onNote={setNote}
                disabled={busy}
              />
            </Line>
            {note && !busy && (
              <Text size="sm" c="dimmed" ta="right" role="status" data-testid="quantity-note">
                {note}
              </Text>
            )}
            <Line label="Available stock">
              <Text fw={500} data-testid="available-stock">
                {product.stock.toLocaleString('en-IN')}
              </Text>
            </Line>
            <Divider />
            <Line label="Total amount">
              <Text fw={700} size="xl" data-testid="purchase-total">
                {total === undefined ? '—' : formatINR(total)}
              </Text>
            </Line>
          </>
        )}
        <Line label="Wallet balance">
          <WalletBalance query={wallet} />
        </Line>
        {insufficient && (
          <Alert
            color="yellow"
            variant="light"
            title={ORDER_MESSAGES.insufficientBalance}
            icon={<IconAlertTriangle size={18} />}
            data-testid="insufficient-balance"
          >
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{ORDER_MESSAGES.insufficientBalanceDetail}</Text>
              <Button component={Link} to="/wallet" size="xs" variant="light" color="yellow">
                Go to Wallet
              </Button>
            </Stack>
          </Alert>
        )}
        {done && (
          <Alert
            color="green"
            variant="light"
            title={ORDER_MESSAGES.paymentSuccessful}
            icon={<IconCircleCheck size={18} />}
            role="status"
            data-testid="purchase-success"
          >
            {ORDER_MESSAGES.purchaseSuccess} Taking you to your orders…
          </Alert>
        )}
        {failure && (
          <Alert color="red" variant="light" title={ORDER_MESSAGES.purchaseFailedTitle} role="alert">
            {failure}
          </Alert>
        )}
        <Button
          size="md"
          fullWidth
          color={phase === 'success' ? 'green' : undefined}
          leftSection={PAY_ICONS[phase]}
          // Success is shown in green, not greyed out as a disabled button would be; it does nothing.
          disabled={!done && (outOfStock || !enabled)}
          aria-disabled={done || undefined}
          onClick={() => {
            if (done || !enabled || !total) return;
            setBought({ quantity, total });
            pay({ productId: product.id, quantity, totalPrice: total });
          }}
          data-phase={phase}
        >
          {outOfStock ? 'Out of Stock' : PAY_LABELS[phase]}
        </Button>
      </Stack>
    </Card>
  );
}

function Line({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" gap="sm" wrap="nowrap">
      <Text c="dimmed">{label}</Text>
      {children}
    </Group>
  );
}

function WalletBalance({ query }: { query: UseQueryResult<WalletView> }) {
  if (query.isPending) return <Loader size="xs" role="status" aria-label="Loading wallet balance" />;
  if (query.isError) {
    return (
      <Button size="compact-sm" variant="subtle" color="red" onClick={() => void query.refetch()}>
        Failed to fetch wallet balance · Retry
      </Button>
    );
  }
  return (
    <Group gap={6} wrap="nowrap">
      <IconWallet size={16} aria-hidden />
      <Text fw={600} data-testid="wallet-balance">
        {formatINR(query.data.availableBalance)}
      </Text>
    </Group>
  );
}
