import { Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { ReactNode } from 'react';

/**
 * The step of a dialog where the user types the 6-digit code we emailed (Change Password, email
 * change): what was sent where, the code input, "Resend OTP" disabled while the 30 s cooldown runs
 * (mm:ss shown), and the submit button.
 */
export function CodeStep(props: {
  /** The form's accessible name. */
  name: string;
  /** What was sent where, or that it is being sent or failed. */
  status: ReactNode;
  /** Shown under the status (e.g. why no new code was sent). */
  notice?: ReactNode;
  form: UseFormReturnType<{ otp: string }>;
  onSubmit: (otp: string) => void;
  submitLabel: string;
  submitting: boolean;
  cooldown: { active: boolean; label: string };
  onResend: () => void;
  resending: boolean;
}) {
  const { form, cooldown } = props;
  const resendOff = cooldown.active || props.resending;
  return (
    <form
      noValidate
      aria-label={props.name}
      onSubmit={form.onSubmit((values) => props.onSubmit(values.otp.trim()))}
    >
      <Stack gap="md">
        <Text size="sm" role="status">
          {props.status}
        </Text>
        {props.notice}
        <TextInput
          label="Verification code"
          placeholder="Enter 6-digit code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          required
          data-autofocus
          {...form.getInputProps('otp')}
        />
        <Group justify="space-between" gap="sm">
          <Text size="sm" c="dimmed">
            Didn&apos;t get it?{' '}
            <Anchor
              component="button"
              type="button"
              size="sm"
              onClick={props.onResend}
              disabled={resendOff}
              c={resendOff ? 'dimmed' : undefined}
              style={{ cursor: cooldown.active ? 'not-allowed' : undefined }}
              // Named by its visible text ("Resend OTP in 00:30"): a name of its own hid what it shows.
            >
              {cooldown.active ? `Resend OTP in ${cooldown.label}` : 'Resend OTP'}
            </Anchor>
          </Text>
          <Button type="submit" loading={props.submitting}>
            {props.submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
