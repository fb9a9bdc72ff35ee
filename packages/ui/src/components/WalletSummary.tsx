import { Badge, Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { heldBalanceOf, type WalletView } from '@qm/contracts/rest';
import { formatINR } from '../money';
import type { ReactNode } from 'react';

/**
 * The /wallet page's first row (docs/product.md §2): Current Balance and Actions. The page fills it, and
 * the frame shown while the page loads draws the same row with the balance the gateway sent in the HTML
 * (docs/adr/031), so the figure painted first stays where it is when the page arrives.
 */
export function WalletSummary({ balance, actions }: { balance: ReactNode; actions: ReactNode }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} mb="lg">
      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="balance-title">
        <Text c="dimmed" size="sm" id="balance-title">
          Current Balance
        </Text>
        {balance}
      </Card>
      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="actions-title">
        <Text c="dimmed" size="sm" mb="sm" id="actions-title">
          Actions
        </Text>
        {actions}
      </Card>
    </SimpleGrid>
  );
}

/** The balance, and what pending transfers hold of it when they hold anything. */
export function BalanceFigure({ wallet }: { wallet: WalletView }) {
  const held = heldBalanceOf(wallet);
  return (
    <Stack gap={4}>
      <Title order={2} size="h1" data-testid="wallet-balance">
        {formatINR(wallet.balance)}
      </Title>
      {held && (
        <Group gap="xs">
          <Badge variant="light" color="yellow">
            On hold
          </Badge>
          <Text size="sm" c="dimmed">
            {formatINR(held)} reserved · {formatINR(wallet.availableBalance)} available
          </Text>
        </Group>
      )}
    </Stack>
  );
}

/**
 * The Actions card's two buttons while the page loads: where they will be, not yet something to press.
 * Side by side as the buttons are, at any width: a skeleton has no width of its own, so in a wrapping
 * row each took a line and the card shrank when the buttons came (at 375 px).
 */
export function WalletActionsPlaceholder() {
  return (
    <Group grow wrap="nowrap" aria-hidden>
      <Skeleton height={36} radius="sm" />
      <Skeleton height={36} radius="sm" />
    </Group>
  );
}
