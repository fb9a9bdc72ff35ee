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
import { useForm } from '@mantine/form';
import { OtpSchema, RequestPasswordResetBody, ResetPasswordForm } from '@qm/contracts/rest';
import { apiFetch, errorMessage } from '@qm/ui';
import { useMutation } from '@tanstack/react-query';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { z } from 'zod';
import { useCooldown } from '../../auth/useCooldown';
import { useFlowToast } from '../../auth/useFlowToast';

const OtpForm = z.object({ otp: OtpSchema });
const RESEND_SECONDS = 30;

type Step = 0 | 1 | 2;

const STEP_TITLES = ['Forgot Password', 'Verify OTP', 'Reset Password'] as const;
const STEP_TEXT = [
  'Enter the email address or username of your account and we will email you a one-time code.',
  'Enter the 6-digit code we sent to your registered email.',
  'Choose a new password for your account.',
] as const;

/**
 * /forgot-password — three steps (spec §2, §4, §8): send a code, verify it, set the new password; Back
 * returns to the previous step; success goes to /auth. A Sign in link is always shown.
 */
export default function ForgotPasswordPage() {
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>(0);
  const [account, setAccount] = useState('');
  const cooldown = useCooldown(RESEND_SECONDS);
  const toast = useFlowToast();

  const accountForm = useForm({
    mode: 'controlled',
    initialValues: { emailOrUsername: '' },
    validate: zod4Resolver(RequestPasswordResetBody),
  });
  const otpForm = useForm({
    mode: 'controlled',
    initialValues: { otp: '' },
    validate: zod4Resolver(OtpForm),
  });
  const passwordForm = useForm({
    mode: 'controlled',
    initialValues: { password: '', confirmPassword: '' },
    validate: zod4Resolver(ResetPasswordForm),
  });

  const sendOtp = useMutation({
    mutationFn: (emailOrUsername: string) =>
      apiFetch('/api/request-password-reset', { method: 'POST', body: { emailOrUsername } }),
    retry: false,
    onSuccess: (_data, emailOrUsername) => {
      setAccount(emailOrUsername);
      cooldown.start();
      otpForm.reset();
      setStep(1);
      toast({
        color: 'green',
        title: 'OTP Sent',
        message: 'Please check your email for the OTP',
      });
    },
    onError: (error) => {
      toast({
        color: 'red',
        title: 'Failed to send OTP',
        message: errorMessage(error, 'Please check your email or username and try again'),
      });
    },
  });

  const verifyOtp = useMutation({
    mutationFn: (otp: string) =>
      apiFetch('/api/verify-password-reset-otp', { method: 'POST', body: { emailOrUsername: account, otp } }),
    retry: false,
    onSuccess: () => {
      passwordForm.reset();
      setStep(2);
      toast({ color: 'green', title: 'OTP Verified', message: 'Please set your new password' });
    },
    onError: (error) => {
      toast({
        color: 'red',
        title: 'Invalid OTP',
        message: errorMessage(error, 'Please check the OTP and try again'),
      });
    },
  });

  const resetPassword = useMutation({
    mutationFn: (values: { password: string; confirmPassword: string }) =>
      apiFetch('/api/reset-password', {
        method: 'POST',
        body: { emailOrUsername: account, password: values.password },
      }),
    retry: false,
    onSuccess: () => {
      toast({
        color: 'green',
        title: 'Password Reset Successfully',
        message: 'You can now login with your new password',
      });
      void navigate('/auth');
    },
    onError: (error) => {
      toast({
        color: 'red',
        title: 'Password Reset Failed',
        message: errorMessage(error, 'An error occurred, please try again'),
      });
    },
  });

  return (
    <Container size="xs" py="xl">
      <Card withBorder radius="md" padding="xl" shadow="sm">
        <Stack gap="lg">
          <Stepper active={step} size="xs" allowNextStepsSelect={false} aria-label="Password reset progress">
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
