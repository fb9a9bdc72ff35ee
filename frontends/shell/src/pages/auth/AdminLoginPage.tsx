import { Card, Container, Title } from '@mantine/core';

/** /admin — administrator sign-in (built by the identity work). */
export default function AdminLoginPage() {
  return (
    <Container size="xs" py="xl">
      <Card withBorder radius="md" padding="xl">
        <Title order={1} size="h2" ta="center">
          System Admin Login
        </Title>
      </Card>
    </Container>
  );
}
