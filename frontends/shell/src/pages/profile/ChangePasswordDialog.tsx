import {
  Alert,
  Anchor,
  Button,
  Group,
  Modal,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { ChangePasswordForm, OtpSchema } from '@qm/contracts/rest';
import { apiFetch, errorMessage } from '@qm/ui';
import { IconCircleCheck, IconLock } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useEffect, useState } from 'react';
import { z } from 'zod';
import { useCooldown } from '../../auth/useCooldown';
import { useFlowToast } from '../../auth/useFlowToast';

/** The dialog's steps (spec §2, §4). */
export type ChangePasswordStep = 'otp-verification' | 'enter-password' | 'success';

/** Spec §9: a new code at most every 30 s; the success step closes itself after 3 s. */
export const RESEND_SECONDS = 30;
export const SUCCESS_CLOSE_MS = 3000;

const OtpForm = z.object({ otp: OtpSchema });
type PasswordValues = { currentPassword: string; newPassword: string; confirmNewPassword: string };

/**
 * "Change Password" from the Security Settings tab. Opening it sends a code to the registered email
 * (otp-verification), then current and new password (enter-password), then "Password Changed"
 * (success), which closes after 3 s. Closing at any time resets it; opening again sends a fresh code.
 */
export function ChangePasswordSection() {
  const [opened, setOpened] = useState(false);
  const [step, setStep] = useState<ChangePasswordStep>('otp-verification');
  const [verifiedOtp, setVerifiedOtp] = useState('');
  // Kept outside the dialog's life, so closing and reopening cannot get around the 30 s wait.
  const cooldown = useCooldown(RESEND_SECONDS);
  const toast = useFlowToast();
  const [sendWaiting, setSendWaiting] = useState(false);

  const otpForm = useForm({
    mode: 'controlled',
    initialValues: { otp: '' },
    validate: zod4Resolver(OtpForm),
  });
  const passwordForm = useForm<PasswordValues>({
    mode: 'controlled',
    initialValues: { currentPassword: '', newPassword: '', confirmNewPassword: '' },
    validate: zod4Resolver(ChangePasswordForm),
  });

  const sendOtp = useMutation({
    mutationFn: () => apiFetch('/api/user/request-password-change-otp', { method: 'POST', body: {} }),
    retry: false,
    onSuccess: () => {
      cooldown.start();
      setSendWaiting(false);
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
        message: errorMessage(error, 'Failed to send OTP'),
      });
    },
  });

  const verifyOtp = useMutation({
    mutationFn: (otp: string) => apiFetch('/api/user/verify-password-otp', { method: 'POST', body: { otp } }),
    retry: false,
    onSuccess: (_data, otp) => {
      setVerifiedOtp(otp);
      setStep('enter-password');
      toast({
        color: 'green',
        title: 'OTP Verified',
        message: 'Please enter your current and new password',
      });
    },
    onError: (error) => {
      toast({
        color: 'red',
        title: 'Invalid OTP',
        message: errorMessage(error, 'Invalid OTP'),
      });
    },
  });

  const changePassword = useMutation({
    mutationFn: async (values: PasswordValues) => {
      // The current password first, so a wrong one is named as such ("Current password is incorrect").
      await apiFetch('/api/user/verify-current-password', {
        method: 'POST',
        body: { currentPassword: values.currentPassword },
      });
      await apiFetch('/api/user/verify-password-otp', {
        method: 'POST',
        body: { otp: verifiedOtp, newPassword: values.newPassword },
      });
    },
    retry: false,
    onSuccess: () => {
      setStep('success');
      toast({
        color: 'green',
        title: 'Success',
        message: 'Your password has been changed successfully.',
      });
    },
    onError: (error) => {
      toast({
        color: 'red',
        title: 'Error',
        message: errorMessage(error, 'Failed to change password'),
      });
    },
  });

  const reset = () => {
    setStep('otp-verification');
    setVerifiedOtp('');
    otpForm.reset();
    passwordForm.reset();
  };

  const open = () => {
    reset();
    setOpened(true);
    // A fresh code on every opening, unless one went out less than 30 s ago (the server would refuse it;
    // that code is still valid and the countdown shows when the next one may be asked for).
    if (cooldown.active) setSendWaiting(true);
    else sendOtp.mutate();
  };

  const close = () => {
    setOpened(false);
    reset();
  };

  // The success step closes the dialog after 3 s.
  useEffect(() => {
    if (!opened || step !== 'success') return;
    const timer = window.setTimeout(() => {
      setOpened(false);
      setStep('otp-verification');
    }, SUCCESS_CLOSE_MS);
    return () => window.clearTimeout(timer);
  }, [opened, step]);

  return (
    <>
      <Button leftSection={<IconLock size={18} />} onClick={open}>
        Change Password
      </Button>
      <Modal
        opened={opened}
        onClose={close}
        centered
        title="Change Password"
        radius="md"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {step === 'otp-verification' && (
          <form
            noValidate
            aria-label="Verify code"
            onSubmit={otpForm.onSubmit((values) => verifyOtp.mutate(values.otp.trim()))}
          >
            <Stack gap="md">
              <Text size="sm" role="status">
                {sendOtp.isPending
                  ? 'Sending a 6-digit verification code to your registered email...'
                  : sendOtp.isError
                    ? 'The verification code could not be sent. Use Resend OTP to try again.'
                    : 'We sent a 6-digit verification code to your registered email. Enter it below to continue.'}
              </Text>
              {sendWaiting && cooldown.active && (
                <Alert color="blue" variant="light">
                  A code was sent less than 30 seconds ago and is still valid. You can ask for a new one when
                  the countdown ends.
                </Alert>
              )}
              <TextInput
                label="Verification code"
                placeholder="Enter 6-digit code"
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                required
                data-autofocus
                {...otpForm.getInputProps('otp')}
              />
              <Group justify="space-between" gap="sm">
                <Text size="sm" c="dimmed">
                  Didn&apos;t get it?{' '}
                  <Anchor
                    component="button"
                    type="button"
                    size="sm"
                    onClick={() => sendOtp.mutate()}
                    disabled={cooldown.active || sendOtp.isPending}
                    c={cooldown.active || sendOtp.isPending ? 'dimmed' : undefined}
                    style={{ cursor: cooldown.active ? 'not-allowed' : undefined }}
                    aria-label={cooldown.active ? `Resend OTP, available in ${cooldown.label}` : 'Resend OTP'}
                  >
                    {cooldown.active ? `Resend OTP in ${cooldown.label}` : 'Resend OTP'}
                  </Anchor>
                </Text>
                <Button type="submit" loading={verifyOtp.isPending}>
                  Verify OTP
                </Button>
              </Group>
            </Stack>
          </form>
        )}

        {step === 'enter-password' && (
          <form
            noValidate
            aria-label="New password"
            onSubmit={passwordForm.onSubmit((values) => changePassword.mutate(values))}
          >
            <Stack gap="md">
              <PasswordInput
                label="Current Password"
                autoComplete="current-password"
                required
                data-autofocus
                {...passwordForm.getInputProps('currentPassword')}
              />
              <PasswordInput
                label="New Password"
                placeholder="At least 6 characters"
                autoComplete="new-password"
                required
                {...passwordForm.getInputProps('newPassword')}
              />
              <PasswordInput
                label="Confirm New Password"
                autoComplete="new-password"
                required
                {...passwordForm.getInputProps('confirmNewPassword')}
              />
              <Group justify="flex-end" gap="sm">
                <Button variant="default" onClick={close}>
                  Cancel
                </Button>
                <Button type="submit" loading={changePassword.isPending}>
                  Change Password
                </Button>
              </Group>
            </Stack>
          </form>
        )}

        {step === 'success' && (
          <Stack align="center" gap="sm" py="md" role="status">
            <ThemeIcon size={56} radius="xl" color="green" variant="light">
              <IconCircleCheck size={32} />
            </ThemeIcon>
            <Title order={3}>Password Changed</Title>
            <Text ta="center" size="sm">
              Your password has been changed successfully. A confirmation email has been sent to your
              registered email address.
            </Text>
          </Stack>
        )}
      </Modal>
    </>
  );
}
