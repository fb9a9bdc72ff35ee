import {
  Button,
  Group,
  Loader,
  PasswordInput,
  Radio,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { RegisterBody, RegisterForm as RegisterSchema, type RegisterInput } from '@qm/contracts/rest';
import { apiFetch, errorMessage } from '@qm/ui';
import { IconAlertTriangle, IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useUsernameAvailability, type UsernameNote } from '../../auth/useUsernameAvailability';

type RegisterValues = Required<RegisterInput>;

const EMPTY: RegisterValues = {
  username: '',
  password: '',
  confirmPassword: '',
  email: '',
  firstName: '',
  lastName: '',
  phoneNumber: '',
  role: 'Army',
};

/** The toast after a registration (docs/product.md §4), shown for 6 s (docs/product.md §9). */
export const REGISTRATION_TOAST = {
  title: 'Registration successful',
  message: 'Your request has been submitted for approval. Please check your email for instructions.',
  autoClose: 6000,
};

function AvailabilityNote({ note }: { note: UsernameNote }) {
  if (note.state === 'idle') return null;
  const look = {
    checking: { color: 'dimmed', icon: <Loader size={12} /> },
    available: { color: 'green', icon: <IconCircleCheck size={14} /> },
    taken: { color: 'red', icon: <IconCircleX size={14} /> },
    error: { color: 'orange', icon: <IconAlertTriangle size={14} /> },
  }[note.state];
  return (
    <Group gap={6} wrap="nowrap" component="span" data-testid="username-note" data-state={note.state}>
      {look.icon}
      <Text span size="xs" c={look.color}>
        {note.text}
      </Text>
    </Group>
  );
}

export interface RegisterFormProps {
  /** After a successful registration, with the registered username. */
  onRegistered: (username: string) => void;
}

/** The registration half of /auth: every field of docs/product.md §5 and the live username note. */
export function RegisterForm({ onRegistered }: RegisterFormProps) {
  const form = useForm<RegisterValues>({
    mode: 'controlled',
    initialValues: EMPTY,
    validate: zod4Resolver(RegisterSchema),
  });
  const note = useUsernameAvailability(form.values.username, true);

  const register = useMutation({
    mutationFn: (values: RegisterValues) =>
      apiFetch('/api/register', { method: 'POST', body: RegisterBody.parse(values) }),
    onSuccess: (_data, values) => {
      notifications.show({ color: 'green', ...REGISTRATION_TOAST });
      onRegistered(values.username.trim());
    },
    onError: (error) => {
      notifications.show({
        color: 'red',
        title: 'Registration failed',
        message: errorMessage(error, 'Registration failed'),
      });
    },
  });

  const usernameProps = form.getInputProps('username');

  return (
    <form onSubmit={form.onSubmit((values) => register.mutate(values))} noValidate aria-label="Register">
      <Stack gap="md">
        <TextInput
          label="Username"
          placeholder="Choose a username"
          autoComplete="username"
          required
          {...usernameProps}
          // The username is trimmed as it is typed (docs/product.md §5).
          onChange={(event) => form.setFieldValue('username', event.currentTarget.value.trim())}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          description={<AvailabilityNote note={note} />}
          descriptionProps={{ 'aria-live': 'polite' }}
        />
        <PasswordInput
          label="Password"
          placeholder="At least 6 characters"
          autoComplete="new-password"
          required
          {...form.getInputProps('password')}
        />
        <PasswordInput
          label="Confirm Password"
          placeholder="Repeat the password"
          autoComplete="new-password"
          required
          {...form.getInputProps('confirmPassword')}
        />
        <TextInput
          label="Email"
          type="email"
          placeholder="you@unit.gov.in"
          autoComplete="email"
          required
          {...form.getInputProps('email')}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <TextInput
            label="First Name"
            autoComplete="given-name"
            required
            {...form.getInputProps('firstName')}
          />
          <TextInput
            label="Last Name"
            autoComplete="family-name"
            required
            {...form.getInputProps('lastName')}
          />
        </SimpleGrid>
        <TextInput
          label="Phone Number"
          type="tel"
          placeholder="+91 98765 43210"
          autoComplete="tel"
          {...form.getInputProps('phoneNumber')}
        />
        <Radio.Group label="Role" required {...form.getInputProps('role')}>
          <Group gap="lg" mt={6}>
            <Radio value="Army" label="Army" />
            <Radio value="Manufacturer" label="Manufacturer" />
          </Group>
        </Radio.Group>
        {/* A name known to be taken cannot be sent. A failed check shows its note but does not block:
            the server decides on submit, and a stuck "unavailable" would leave no way forward. */}
        <Button type="submit" fullWidth loading={register.isPending} disabled={note.state === 'taken'}>
          Register
        </Button>
      </Stack>
    </form>
  );
}
