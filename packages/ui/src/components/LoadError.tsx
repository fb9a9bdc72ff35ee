import { Alert, type AlertProps, Button, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { errorMessage } from '../api';

export interface LoadErrorProps extends Omit<AlertProps, 'title' | 'color' | 'icon' | 'children'> {
  /** What could not be loaded, in the product reference's words (e.g. "Failed to fetch orders"). */
  title: string;
  error: unknown;
  /** Shown when the error carries no message of its own. */
  fallback: string;
  onRetry: () => void;
}

/** A query that failed: what, why, and Retry (every list and page of the remotes shows it the same way). */
export function LoadError({ title, error, fallback, onRetry, ...alert }: LoadErrorProps) {
  return (
    <Alert color="red" title={title} icon={<IconAlertTriangle size={18} />} {...alert}>
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{errorMessage(error, fallback)}</Text>
        <Button size="xs" variant="light" color="red" onClick={onRetry}>
          Retry
        </Button>
      </Stack>
    </Alert>
  );
}
