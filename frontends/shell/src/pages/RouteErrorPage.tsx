import { Alert, Button, Code, Container, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import NotFoundPage from './NotFoundPage';

/** Shown inside the layout when a page throws (or a page's code fails to download). */
export function RouteErrorPage() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  const message = error instanceof Error ? error.message : String(error);
  return (
    <Container size="sm" py="xl">
      <Alert
        color="red"
        variant="light"
        icon={<IconAlertTriangle />}
        title="Something went wrong"
        role="alert"
      >
        <Stack gap="sm">
          <Text size="sm">This page failed to load. The rest of Quartermaster keeps working.</Text>
          <Code block style={{ whiteSpace: 'pre-wrap' }}>
            {message}
          </Code>
          <Button color="red" w="fit-content" onClick={() => window.location.reload()}>
            Reload page
          </Button>
        </Stack>
      </Alert>
    </Container>
  );
}
