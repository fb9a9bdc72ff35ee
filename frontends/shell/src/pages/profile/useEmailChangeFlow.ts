import { useForm } from '@mantine/form';
import { OtpSchema, VerifyCurrentPasswordBody } from '@qm/contracts/rest';
import { apiFetch, CURRENT_USER_QUERY_KEY, errorMessage, toast } from '@qm/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useState } from 'react';
import { z } from 'zod';
import { useCooldown } from '../../auth/useCooldown';
import { RESEND_SECONDS } from './useChangePasswordFlow';

/** The email change dialog's steps: the current password, then the code sent to the new address. */
export type EmailChangeStep = 'password' | 'code';

const OtpForm = z.object({ otp: OtpSchema });

/**
 * A new email address (POST /api/user/email-change, then /confirm): the server checks the current
 * password and mails a code to the new address; the change applies when the code is confirmed.
 * `onChanged` gets the address now in effect.
 */
export function useEmailChangeFlow(onChanged: (email: string) => void) {
  const queryClient = useQueryClient();
  const [newEmail, setNewEmail] = useState<string | undefined>(undefined);
  const [step, setStep] = useState<EmailChangeStep>('password');
  // Kept for "Resend OTP" while the dialog is open (the server asks for it with every send).
  const [password, setPassword] = useState('');
  const cooldown = useCooldown(RESEND_SECONDS);

  const passwordForm = useForm({
    mode: 'controlled',
    initialValues: { currentPassword: '' },
    validate: zod4Resolver(VerifyCurrentPasswordBody),
  });
  const otpForm = useForm({
    mode: 'controlled',
    initialValues: { otp: '' },
    validate: zod4Resolver(OtpForm),
  });

  const sendCode = useMutation({
    mutationFn: (currentPassword: string) =>
      apiFetch('/api/user/email-change', { method: 'POST', body: { newEmail, currentPassword } }),
    retry: false,
    onSuccess: (_data, currentPassword) => {
      setPassword(currentPassword);
      setStep('code');
      cooldown.start();
      toast({ color: 'green', title: 'OTP Sent', message: `We sent a code to ${newEmail}.` });
    },
    onError: (error) => {
      toast({ color: 'red', title: 'Email not changed', message: errorMessage(error, 'Failed to send OTP') });
    },
  });

  const confirm = useMutation({
    mutationFn: (otp: string) =>
      apiFetch<{ user: { email: string } }>('/api/user/email-change/confirm', {
        method: 'POST',
        body: { otp },
      }),
    retry: false,
    onSuccess: async (data) => {
      close();
      onChanged(data.user.email);
      await queryClient.invalidateQueries({ queryKey: CURRENT_USER_QUERY_KEY });
      toast({ color: 'green', title: 'Email changed', message: 'Your email address has been changed' });
    },
    onError: (error) => {
      toast({ color: 'red', title: 'Invalid OTP', message: errorMessage(error, 'Invalid OTP') });
    },
  });

  /** Opens the dialog for `email`. */
  const open = (email: string) => {
    setStep('password');
    setNewEmail(email);
  };

  function close() {
    setNewEmail(undefined);
    setPassword('');
    passwordForm.reset();
    otpForm.reset();
  }

  return {
    opened: newEmail !== undefined,
    newEmail: newEmail ?? '',
    step,
    cooldown,
    passwordForm,
    otpForm,
    sendCode,
    resend: () => sendCode.mutate(password),
    confirm,
    open,
    close,
  };
}
