import {
  Alert,
  Anchor,
  Button,
  Divider,
  Group,
  PasswordInput,
  SimpleGrid,
  Stack,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { looksLikeSql, SignInForm as SignInSchema } from '@qm/contracts/rest';
import { IconKey, IconShieldLock } from '@tabler/icons-react';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { SqlInjectorDialog } from '../../auth/AuthDialogs';
import { showLoginFailure } from '../../auth/signIn';
import { startSso } from '../../auth/sso';
import type { Credentials } from '../../auth/useLogin';
import { isAdminName } from '../../auth/useUsernameAvailability';

export interface SignInFormProps {
  initialUsername?: string;
  onSubmit: (credentials: Credentials) => void;
  submitting: boolean;
}

/** The sign-in half of /auth: username, password, Forgot password, Login as Admin and Sign in with SSO. */
export function SignInForm({ initialUsername = '', onSubmit, submitting }: SignInFormProps) {
  const [sqlDialog, setSqlDialog] = useState(false);
  const [ssoStarting, setSsoStarting] = useState(false);
  const form = useForm<Credentials>({
    mode: 'controlled',
    initialValues: { username: initialUsername, password: '' },
    validate: zod4Resolver(SignInSchema),
  });
  // "admin" signs in at the admin portal now: the note shows and sign-in is disabled (docs/product.md §2).
  const adminTyped = isAdminName(form.values.username);

  const submit = form.onSubmit(
    (values) => onSubmit({ username: values.username.trim(), password: values.password }),
    (_errors, values) => {
      if (looksLikeSql(values.password)) setSqlDialog(true);
    },
  );

  const backToLogin = () => {
    setSqlDialog(false);
    form.reset();
  };

  const signInWithSso = async () => {
    setSsoStarting(true);
    try {
      await startSso(); // leaves the page for Keycloak
    } catch (error) {
      setSsoStarting(false);
      showLoginFailure(error);
    }
  };

  return (
    <>
      <form onSubmit={submit} noValidate aria-label="Sign in">
        <Stack gap="md">
          <TextInput
            label="Username"
            placeholder="Your username"
            autoComplete="username"
            required
            {...form.getInputProps('username')}
          />
          {adminTyped && (
            <Alert
              color="blue"
              variant="light"
              icon={<IconShieldLock size={18} />}
              title="Admin login has moved"
              role="status"
            >
              Administrators now sign in through the admin portal.{' '}
              <Anchor component={Link} to="/admin" fw={600}>
                Go to the admin login
              </Anchor>
            </Alert>
          )}
          <PasswordInput
            label="Password"
            placeholder="Your password"
            autoComplete="current-password"
            required
            {...form.getInputProps('password')}
          />
          <Group justify="flex-end" mt={-8}>
            <Anchor component={Link} to="/forgot-password" size="sm">
              Forgot password?
            </Anchor>
          </Group>
          <Button type="submit" fullWidth loading={submitting} disabled={adminTyped}>
            Sign In
          </Button>
          <Divider label="or" labelPosition="center" />
          {/* Side by side from `xs` up; stacked on a phone, where side by side cut both labels short. */}
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <Button
              variant="light"
              leftSection={<IconKey size={18} />}
              onClick={() => void signInWithSso()}
              loading={ssoStarting}
            >
              Sign in with SSO
            </Button>
            <Button component={Link} to="/admin" variant="default" leftSection={<IconShieldLock size={18} />}>
              Login as Admin
            </Button>
          </SimpleGrid>
        </Stack>
      </form>
      <SqlInjectorDialog opened={sqlDialog} onBack={backToLogin} />
    </>
  );
}
