import { Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** One labelled value of a details dialog (order, transaction, user); long values wrap anywhere. */
export function DetailField({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2} miw={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}
