import { Card, Container, Title } from '@mantine/core';
import { useSearchParams } from 'react-router-dom';

/** /auth — combined sign-in and registration (built by the identity work). */
export default function AuthPage() {
  const [params] = useSearchParams();
  const register = params.get('tab') === 'register';
  return (
    <Container size="xs" py="xl">
      <Card withBorder radius="md" padding="xl">
        <Title order={1} size="h2" ta="center">
          {register ? 'Create Account' : 'Welcome Back'}
        </Title>
      </Card>
    </Container>
  );
}
