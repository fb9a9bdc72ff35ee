import { Button, Card, Group, SimpleGrid, Text, Title } from '@mantine/core';
import { formatINR, PageHeader } from '@qm/ui';
import { IconPlus, IconSend } from '@tabler/icons-react';

export function WalletPage() {
  return (
    <>
      <PageHeader title="Wallet" />
      <SimpleGrid cols={{ base: 1, sm: 2 }} mb="lg">
        <Card withBorder radius="md" padding="lg">
          <Text c="dimmed" size="sm">
            Current Balance
          </Text>
          <Title order={2}>{formatINR('0.00')}</Title>
        </Card>
        <Card withBorder radius="md" padding="lg">
          <Text c="dimmed" size="sm" mb="sm">
            Actions
          </Text>
          <Group>
            <Button leftSection={<IconPlus size={16} />} disabled>
              Add Money
            </Button>
            <Button variant="light" leftSection={<IconSend size={16} />} disabled>
              Transfer
            </Button>
          </Group>
        </Card>
      </SimpleGrid>
      <Card withBorder radius="md" padding="lg">
        <Title order={3}>Transaction History</Title>
      </Card>
    </>
  );
}
