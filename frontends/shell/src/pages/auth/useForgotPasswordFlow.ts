import { useForm } from '@mantine/form';
import { OtpSchema, RequestPasswordResetBody, ResetPasswordForm } from '@qm/contracts/rest';
import { apiFetch, errorMessage, toast } from '@qm/ui';
import { useMutation } from '@tanstack/react-query';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { z } from 'zod';
import { useCooldown } from '../../auth/useCooldown';

const OtpForm = z.object({ otp: OtpSchema });
const RESEND_SECONDS = 30;

type Step = 0 | 1 | 2;

/** The /forgot-password flow's state: the current step, its three forms and the three requests. */
export function useForgotPasswordFlow() {
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>(0);
  const [account, setAccount] = useState('');
  const cooldown = useCooldown(RESEND_SECONDS);

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
      toast(
        {
          color: 'green',
          title: 'Password Reset Successfully',
          message: 'You can now login with your new password',
        },
        { nextPage: true },
      );
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

  return {
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
  };
}
