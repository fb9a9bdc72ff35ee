import { Badge, Card, Group, List, Text, Title } from '@mantine/core';
import type { OwnWalletView } from '@qm/contracts/rest';
import { isNonZeroAmount } from '@qm/contracts/rules';
import { exactDate, formatINR } from '@qm/ui';
import { heldSaleLabel } from '../proceeds';

/**
 * A seller's sale proceeds waiting out the refund window (docs/adr/028): not in the balance yet,
 * each with the moment it is released. Nothing shows while nothing is held.
 */
export function HeldProceeds({ wallet }: { wallet: OwnWalletView }) {
  if (!isNonZeroAmount(wallet.proceedsOnHold)) return null;
  return (
    <Card withBorder radius="md" padding="lg" mb="lg" component="section" aria-labelledby="proceeds-title">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
        <div>
          <Text c="dimmed" size="sm" id="proceeds-title">
            Proceeds on hold
          </Text>
          <Title order={3} data-testid="proceeds-on-hold">
            {formatINR(wallet.proceedsOnHold)}
          </Title>
        </div>
        <Badge variant="light" color="blue">
          Refund window
        </Badge>
      </Group>
      <Text size="sm" c="dimmed" mt="xs">
        A sale&apos;s proceeds reach your balance when its refund window closes.
      </Text>
      <List size="sm" mt="sm" spacing={4} data-testid="held-proceeds">
        {wallet.heldProceeds.map((p) => (
          <List.Item key={p.reference}>
            {heldSaleLabel(p.reference)}: {formatINR(p.amount)},{' '}
            {p.refundRequested
              ? 'refund requested: held until it is decided'
              : `released ${exactDate(p.releaseAt)}`}
          </List.Item>
        ))}
      </List>
    </Card>
  );
}
