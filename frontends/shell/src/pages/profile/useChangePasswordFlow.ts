import { useForm } from '@mantine/form';
import { ChangePasswordForm, OtpSchema } from '@qm/contracts/rest';
import { apiFetch, errorMessage, toast } from '@qm/ui';
import { useMutation } from '@tanstack/react-query';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useEffect, useState } from 'react';
import { z } from 'zod';
import { useCooldown } from '../../auth/useCooldown';

/** The dialog's steps (docs/product.md §2, §4). */
export type ChangePasswordStep = 'otp-verification' | 'enter-password' | 'success';

/** docs/product.md §9: a new code at most every 30 s; the success step closes itself after 3 s. */
export const RESEND_SECONDS = 30;
export const SUCCESS_CLOSE_MS = 3000;

const OtpForm = z.object({ otp: OtpSchema });
type PasswordValues = { currentPassword: string; newPassword: string; confirmNewPassword: string };

/** The Change Password dialog's state: open/closed, the step, its two forms and the three requests. */
export function useChangePasswordFlow() {
  const [opened, setOpened] = useState(false);
  const [step, setStep] = useState<ChangePasswordStep>('otp-verification');
  const [verifiedOtp, setVerifiedOtp] = useState('');
  // Kept outside the dialog's life, so closing and reopening cannot get around the 30 s wait.
  const cooldown = useCooldown(RESEND_SECONDS);
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

  return {
    opened,
    step,
    cooldown,
    sendWaiting,
    otpForm,
    passwordForm,
    sendOtp,
    verifyOtp,
    changePassword,
    open,
    close,
  };
}
