import { Center, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export interface EmptyStateProps {
  title: string;
  description?: ReactNode;
  icon?: ReactNode;
  action?: ReactNode;
}

export function EmptyState({ title, description, icon, action }: EmptyStateProps) {
  return (
    <Paper withBorder radius="md" p="xl">
      <Center>
        <Stack align="center" gap="xs" maw={420} ta="center">
          {icon && (
            <ThemeIcon size={48} radius="xl" variant="light">
              {icon}
            </ThemeIcon>
          )}
          <Title order={3}>{title}</Title>
          {description && <Text c="dimmed">{description}</Text>}
          {action}
        </Stack>
      </Center>
    </Paper>
  );
}
