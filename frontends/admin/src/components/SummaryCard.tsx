import { Card, Group, Stack, Text } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import type { ReactNode } from 'react';

export interface SummaryCardProps {
  label: string;
  value: string;
  icon: Icon;
  color?: string;
  /** A line under the figure (e.g. the completed and pending counts). */
  detail?: ReactNode;
}

/** A figure card at the top of an admin page (its label names the region for screen readers). */
export function SummaryCard({ label, value, icon: CardIcon, color, detail }: SummaryCardProps) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={label}>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={4}>
          <Text size="sm" c="dimmed">
            {label}
          </Text>
          <Text fw={700} fz="xl">
            {value}
          </Text>
          {detail && (
            <Text size="xs" c="dimmed">
              {detail}
            </Text>
          )}
        </Stack>
        <CardIcon size={24} color={color ? `var(--mantine-color-${color}-6)` : undefined} aria-hidden />
      </Group>
    </Card>
  );
}
