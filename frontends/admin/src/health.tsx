import { Text } from '@mantine/core';

/** Exposed as `./health`: proves the remote and its shared dependencies load (shell route /_remotes). */
export default function AdminHealth() {
  return (
    <Text size="sm" c="dimmed" data-testid="remote-health-admin">
      admin remote is up
    </Text>
  );
}
