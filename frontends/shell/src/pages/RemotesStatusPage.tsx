import { Anchor, Badge, Card, Container, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { RemoteHealthModule } from '@qm/ui';
import { RemoteBoundary, RemoteError } from '../remotes/RemoteBoundary';
import { manifestUrl, REMOTE_LABELS, REMOTES, type RemoteName } from '../remotes/registry';

const STATUS_COLORS = { loaded: 'green', loading: 'gray', failed: 'red' } as const;

function Status({ remote, status }: { remote: RemoteName; status: keyof typeof STATUS_COLORS }) {
  return (
    <Badge color={STATUS_COLORS[status]} variant="light" data-testid={`remote-status-${remote}`}>
      {status}
    </Badge>
  );
}

function RemoteCard({ remote }: { remote: RemoteName }) {
  const manifest = manifestUrl(remote);
  const header = (status: keyof typeof STATUS_COLORS) => (
    <Group justify="space-between" mb="sm">
      <Title order={3} size="h4">
        {REMOTE_LABELS[remote]}
      </Title>
      <Status remote={remote} status={status} />
    </Group>
  );

  return (
    <Card withBorder radius="md" padding="lg" data-remote={remote}>
      <RemoteBoundary<RemoteHealthModule>
        remote={remote}
        expose="health"
        loading={header('loading')}
        renderError={(error, retry) => (
          <>
            {header('failed')}
            <RemoteError remote={remote} error={error} onRetry={retry} />
          </>
        )}
        render={({ default: Health }) => (
          <>
            {header('loaded')}
            <Health />
          </>
        )}
      />
      <Anchor href={manifest} size="xs" c="dimmed" mt="sm" target="_blank" rel="noreferrer">
        {new URL(manifest).pathname}
      </Anchor>
    </Card>
  );
}

/** Public diagnostics page: loads each remote's `./health` module and shows whether it loaded. */
export default function RemotesStatusPage() {
  return (
    <Container size="lg" py="xl">
      <Stack gap={4} mb="lg">
        <Title order={1}>Remote modules</Title>
        <Text c="dimmed">
          The micro-frontends this shell loads at runtime, and whether each one is reachable.
        </Text>
      </Stack>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {REMOTES.map((remote) => (
          <RemoteCard key={remote} remote={remote} />
        ))}
      </SimpleGrid>
    </Container>
  );
}
