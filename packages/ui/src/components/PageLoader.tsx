import { Center, Loader, Stack, Text } from '@mantine/core';

export interface PageLoaderProps {
  message?: string;
  /** Minimum height of the area (defaults to a comfortable page-body height). */
  minHeight?: number | string;
}

export function PageLoader({ message = 'Loading...', minHeight = '40vh' }: PageLoaderProps) {
  return (
    <Center mih={minHeight} role="status" aria-live="polite">
      <Stack align="center" gap="sm">
        <Loader />
        <Text c="dimmed" size="sm">
          {message}
        </Text>
      </Stack>
    </Center>
  );
}
