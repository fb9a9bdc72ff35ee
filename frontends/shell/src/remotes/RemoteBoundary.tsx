import { Alert, Button, Code, Group, Stack, Text } from '@mantine/core';
import { PageLoader } from '@qm/ui';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { Component, Suspense, use, type ErrorInfo, type ReactNode } from 'react';
import { loadRemoteModule, REMOTE_LABELS, resetRemote, type RemoteName } from './registry';
import { PAGE_LOADING_HEIGHT } from '../layout/pageLoaderHeight';

interface ErrorBoundaryProps {
  remote: RemoteName;
  children: ReactNode;
  renderError: (error: Error, retry: () => void) => ReactNode;
}

interface ErrorBoundaryState {
  error: Error | null;
}

/** Catches a remote that fails to load or throws while rendering; Retry reloads it from the network. */
class RemoteErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`[remote ${this.props.remote}]`, error, info.componentStack);
  }

  retry = (): void => {
    resetRemote(this.props.remote);
    this.setState({ error: null });
  };

  override render(): ReactNode {
    if (this.state.error) return this.props.renderError(this.state.error, this.retry);
    return this.props.children;
  }
}

function RemoteModule<T>({
  remote,
  expose,
  render,
}: {
  remote: RemoteName;
  expose: string;
  render: (mod: T) => ReactNode;
}) {
  const mod = use(loadRemoteModule<T>(remote, expose));
  return <>{render(mod)}</>;
}

export interface RemoteBoundaryProps<T> {
  remote: RemoteName;
  /** The exposed module, without "./": "routes", "health". */
  expose: string;
  render: (mod: T) => ReactNode;
  loading?: ReactNode;
  renderError?: (error: Error, retry: () => void) => ReactNode;
}

/** Loads a remote module at runtime and renders it, isolating the rest of the app from its failures. */
export function RemoteBoundary<T>({ remote, expose, render, loading, renderError }: RemoteBoundaryProps<T>) {
  return (
    <RemoteErrorBoundary
      remote={remote}
      renderError={
        renderError ?? ((error, retry) => <RemoteError remote={remote} error={error} onRetry={retry} />)
      }
    >
      <Suspense
        fallback={
          loading ?? (
            <PageLoader message={`Loading ${REMOTE_LABELS[remote]}...`} minHeight={PAGE_LOADING_HEIGHT} />
          )
        }
      >
        <RemoteModule<T> remote={remote} expose={expose} render={render} />
      </Suspense>
    </RemoteErrorBoundary>
  );
}

export function RemoteError({
  remote,
  error,
  onRetry,
}: {
  remote: RemoteName;
  error: Error;
  onRetry: () => void;
}) {
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertTriangle />}
      title={`The ${REMOTE_LABELS[remote]} module could not be loaded`}
      role="alert"
      data-testid={`remote-error-${remote}`}
    >
      <Stack gap="sm">
        <Text size="sm">
          This part of Quartermaster is temporarily unavailable. The rest of the application keeps working;
          try again in a moment.
        </Text>
        <Code block style={{ whiteSpace: 'pre-wrap' }}>
          {error.message
            .split('\n')
            .filter((line) => line.trim() && !line.startsWith('View the docs'))
            .join('\n')}
        </Code>
        <Group>
          <Button color="red" variant="filled" leftSection={<IconRefresh size={16} />} onClick={onRetry}>
            Retry
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
