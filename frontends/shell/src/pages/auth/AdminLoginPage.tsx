import {
  Anchor,
  Button,
  Card,
  Container,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { AdminLoginForm } from '@qm/contracts/rest';
import { PageLoader, useCurrentUser } from '@qm/ui';
import { IconArrowLeft, IconShieldLock } from '@tabler/icons-react';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { Link, Navigate } from 'react-router-dom';
import { AccessDeniedDialog } from '../../auth/AuthDialogs';
import { useLogin, type Credentials } from '../../auth/useLogin';

/**
 * /admin — the administrators' sign-in (docs/product.md §2). Stricter input check than /auth ("SQL injection
 * detected"); the server accepts administrators only, anyone else gets the Access Denied dialog. An
 * administrator who is already signed in goes straight to the dashboard.
 */
export default function AdminLoginPage() {
  const { isAdmin, isLoading } = useCurrentUser();
  const login = useLogin('admin');
  const form = useForm<Credentials>({
    mode: 'controlled',
    initialValues: { username: '', password: '' },
    validate: zod4Resolver(AdminLoginForm),
  });

  if (isLoading) return <PageLoader message="Checking your session..." />;
  if (isAdmin && !login.isSigningIn) return <Navigate to="/admin/dashboard" replace />;

  return (
    <Container size="xs" py="xl">
      <Card withBorder radius="md" padding="xl" shadow="sm">
        <Stack gap="lg">
          <Stack gap="xs" align="center">
            <ThemeIcon size={52} radius="xl" variant="light">
              <IconShieldLock size={28} />
            </ThemeIcon>
            <Title order={1} size="h2" ta="center">
              System Admin Login
            </Title>
            <Text c="dimmed" size="sm" ta="center">
              Restricted area: administrator accounts only
            </Text>
          </Stack>
          <form
            noValidate
            aria-label="Admin sign in"
            onSubmit={form.onSubmit((values) =>
              login.login({ username: values.username.trim(), password: values.password }),
            )}
          >
            <Stack gap="md">
              <TextInput
                label="Admin Username"
                placeholder="Administrator username"
                autoComplete="username"
                required
                {...form.getInputProps('username')}
              />
              <PasswordInput
                label="Password"
                placeholder="Administrator password"
                autoComplete="current-password"
                required
                {...form.getInputProps('password')}
              />
              <Button type="submit" fullWidth loading={login.isPending}>
                Sign In to Admin Portal
              </Button>
            </Stack>
          </form>
          <Anchor component={Link} to="/auth" size="sm" ta="center">
            <IconArrowLeft size={14} style={{ verticalAlign: 'middle', marginRight: 4 }} />
            Back to regular login
          </Anchor>
        </Stack>
      </Card>
      {/* Pending or rejected accounts are not administrators either: the portal only says "not here". */}
      <AccessDeniedDialog opened={login.dialog !== null} onClose={login.closeDialog} portal="admin" />
    </Container>
  );
}
