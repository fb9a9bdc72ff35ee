import { Card, Container, Title } from '@mantine/core';

/** /forgot-password — three-step password reset (built by the identity work). */
export default function ForgotPasswordPage() {
  return (
    <Container size="xs" py="xl">
      <Card withBorder radius="md" padding="xl">
        <Title order={1} size="h2" ta="center">
          Forgot Password
        </Title>
      </Card>
    </Container>
  );
}
