import {
  Anchor,
  Button,
  Card,
  Container,
  Group,
  PasswordInput,
  Stack,
  Stepper,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { Link } from 'react-router-dom';
import { useForgotPasswordFlow } from './useForgotPasswordFlow';

const STEP_TITLES = ['Forgot Password', 'Verify OTP', 'Reset Password'] as const;
const STEP_TEXT = [
  'Enter the email address or username of your account and we will email you a one-time code.',
  'Enter the 6-digit code we sent to your registered email.',
  'Choose a new password for your account.',
] as const;

/**
 * /forgot-password — three steps (docs/product.md §2, §4, §8): send a code, verify it, set the new password; Back
 * returns to the previous step; success goes to /auth. A Sign in link is always shown.
 */
export default function ForgotPasswordPage() {
  const {
    step,
    setStep,
    account,
    cooldown,
    accountForm,
    otpForm,
    passwordForm,
    sendOtp,
    verifyOtp,
    resetPassword,
  } = useForgotPasswordFlow();

  return (
    <Container size="xs" py="xl">
      <Card withBorder radius="md" padding="xl" shadow="sm">
        <Stack gap="lg">
          <Stepper
            active={step}
            size="xs"
            wrap={false}
            allowNextStepsSelect={false}
            aria-label="Password reset progress"
          >
            <Stepper.Step label="Account" />
            <Stepper.Step label="Code" />
            <Stepper.Step label="New password" />
          </Stepper>
          <Stack gap={4}>
            <Title order={1} size="h2" ta="center">
              {STEP_TITLES[step]}
            </Title>
            <Text c="dimmed" size="sm" ta="center">
              {STEP_TEXT[step]}
            </Text>
          </Stack>

          {step === 0 && (
            <form
              noValidate
              aria-label="Forgot password"
              onSubmit={accountForm.onSubmit((values) => sendOtp.mutate(values.emailOrUsername.trim()))}
            >
              <Stack gap="md">
                <TextInput
                  label="Email or Username"
                  placeholder="you@unit.gov.in or your username"
                  autoComplete="username"
                  required
                  {...accountForm.getInputProps('emailOrUsername')}
                />
                <Button type="submit" fullWidth loading={sendOtp.isPending}>
                  Send OTP
                </Button>
              </Stack>
            </form>
          )}

          {step === 1 && (
            <form
              noValidate
              aria-label="Verify OTP"
              onSubmit={otpForm.onSubmit((values) => verifyOtp.mutate(values.otp.trim()))}
            >
              <Stack gap="md">
                <TextInput
                  label="OTP"
                  placeholder="Enter 6-digit code"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={6}
                  required
                  {...otpForm.getInputProps('otp')}
                />
                <Group justify="space-between" gap="sm">
                  <Button variant="default" onClick={() => setStep(0)}>
                    Back
                  </Button>
                  <Group gap="sm">
                    <Button
                      variant="subtle"
                      onClick={() => sendOtp.mutate(account)}
                      disabled={cooldown.active}
                      loading={sendOtp.isPending}
                    >
                      {cooldown.active ? `Resend OTP (${cooldown.label})` : 'Resend OTP'}
                    </Button>
                    <Button type="submit" loading={verifyOtp.isPending}>
                      Verify
                    </Button>
                  </Group>
                </Group>
              </Stack>
            </form>
          )}

          {step === 2 && (
            <form
              noValidate
              aria-label="Reset password"
              onSubmit={passwordForm.onSubmit((values) => resetPassword.mutate(values))}
            >
              <Stack gap="md">
                <PasswordInput
                  label="New Password"
                  placeholder="At least 6 characters"
                  autoComplete="new-password"
                  required
                  {...passwordForm.getInputProps('password')}
                />
                <PasswordInput
                  label="Confirm New Password"
                  placeholder="Repeat the new password"
                  autoComplete="new-password"
                  required
                  {...passwordForm.getInputProps('confirmPassword')}
                />
                <Group justify="space-between" gap="sm">
                  <Button variant="default" onClick={() => setStep(1)}>
                    Back
                  </Button>
                  <Button type="submit" loading={resetPassword.isPending}>
                    Change Password
                  </Button>
                </Group>
              </Stack>
            </form>
          )}

          <Text size="sm" ta="center">
            Remember your password?{' '}
            <Anchor component={Link} to="/auth" fw={600}>
              Sign in
            </Anchor>
          </Text>
        </Stack>
      </Card>
    </Container>
  );
}
