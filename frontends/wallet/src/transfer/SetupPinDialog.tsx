import { Button, Group, PasswordInput, Stack, Text, TextInput, ThemeIcon } from '@mantine/core';
import { useForm } from '@mantine/form';
import { PinSetupForm, VerifyPinOtpBody, WALLET_LIMITS } from '@qm/contracts/rest';
import { toast, errorMessage } from '@qm/ui';
import { IconCircleCheck } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useEffect, useState } from 'react';
import { sendPinOtp, setupPin, useRefreshWallet, verifyPinOtp } from '../api';
import { WalletModal } from '../components/WalletModal';

/** docs/product.md §9: the success message shows 2 s, then the transfer dialog opens. */
export const PIN_SUCCESS_MS = 2000;

export const PIN_FIELDS_FIRST = 'Please fill in the PIN fields correctly before requesting OTP';

/**
 * The dialog's fields: the PIN pair (PinSetupForm) and the emailed 6-digit code. Built with the schemas'
 * own `.and`: the wallet imports no zod of its own (the shell provides @qm/contracts/rest, ADR 017).
 */
const SetupValues = PinSetupForm.and(VerifyPinOtpBody);
type Values = { pin: string; confirmPin: string; otp: string };

export interface SetupPinDialogProps {
  opened: boolean;
  onClose: () => void;
  /** After the success message: the transfer dialog takes over. */
  onDone: () => void;
}

/** Setup Wallet PIN (docs/product.md §2, §4): PIN entered → Send OTP → Verify OTP → "Success!" for 2 s. */
export function SetupPinDialog({ opened, onClose, onDone }: SetupPinDialogProps) {
  const [done, setDone] = useState(false);
  const close = () => {
    setDone(false);
    onClose();
  };
  useEffect(() => {
    if (!opened || !done) return;
    const timer = window.setTimeout(() => {
      setDone(false);
      onDone();
    }, PIN_SUCCESS_MS);
    return () => window.clearTimeout(timer);
  }, [opened, done, onDone]);

  return (
    <WalletModal opened={opened} onClose={close} title={done ? 'Success!' : 'Setup Wallet PIN'}>
      {opened &&
        (done ? (
          <Stack align="center" gap="sm" py="md" role="status">
            <ThemeIcon size={56} radius="xl" color="green" variant="light">
              <IconCircleCheck size={32} />
            </ThemeIcon>
            <Text ta="center">PIN setup completed successfully. You can now make transactions.</Text>
          </Stack>
        ) : (
          <PinForm onVerified={() => setDone(true)} onCancel={close} />
        ))}
    </WalletModal>
  );
}

function PinForm({ onVerified, onCancel }: { onVerified: () => void; onCancel: () => void }) {
  const refreshWallet = useRefreshWallet();
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { pin: '', confirmPin: '', otp: '' },
    validate: zod4Resolver(SetupValues),
  });
  // The PIN pair the emailed code confirms: changing the PIN afterwards needs a new code.
  const [sentFor, setSentFor] = useState<{ pin: string; confirmPin: string } | null>(null);
  const codeMatchesPin =
    sentFor !== null && sentFor.pin === form.values.pin && sentFor.confirmPin === form.values.confirmPin;

  const sendOtp = useMutation({
    mutationFn: async (pair: { pin: string; confirmPin: string }) => {
      await setupPin(pair.pin, pair.confirmPin);
      await sendPinOtp();
      return pair;
    },
    retry: false,
    onSuccess: (pair) => {
      setSentFor(pair);
      toast({ color: 'green', title: 'OTP Sent', message: 'Please check your email for the OTP' });
    },
    onError: (error) => {
      toast({
        color: 'red',
        title: 'Error',
        message: errorMessage(error, 'Failed to send OTP. Please try again.'),
      });
    },
  });

  const verify = useMutation({
    mutationFn: (otp: string) => verifyPinOtp(otp),
    retry: false,
    onSuccess: () => {
      void refreshWallet();
      onVerified();
    },
    onError: (error) => {
      toast({ color: 'red', title: 'Error', message: errorMessage(error, 'Invalid OTP. Please try again.') });
    },
  });

  const requestOtp = () => {
    const pinError = form.validateField('pin').hasError;
    const confirmError = form.validateField('confirmPin').hasError;
    if (pinError || confirmError) {
      toast({ color: 'red', title: 'Error', message: PIN_FIELDS_FIRST });
      return;
    }
    sendOtp.mutate({ pin: form.values.pin, confirmPin: form.values.confirmPin });
  };

  return (
    <form onSubmit={form.onSubmit(({ otp }) => verify.mutate(otp))} noValidate aria-label="Setup Wallet PIN">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Choose a PIN of at least {WALLET_LIMITS.pinMinChars} characters. You will enter it for every
          transfer. A code sent to your registered email confirms it.
        </Text>
        <PasswordInput
          label="New PIN"
          autoComplete="new-password"
          maxLength={WALLET_LIMITS.pinMaxChars}
          required
          data-autofocus
          {...form.getInputProps('pin')}
        />
        <PasswordInput
          label="Confirm PIN"
          autoComplete="new-password"
          maxLength={WALLET_LIMITS.pinMaxChars}
          required
          {...form.getInputProps('confirmPin')}
        />
        <Group align="flex-end" gap="sm" wrap="nowrap">
          <TextInput
            label="OTP"
            placeholder="Enter 6-digit code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={WALLET_LIMITS.otpDigits}
            required
            style={{ flex: 1 }}
            {...form.getInputProps('otp')}
          />
          <Button
            variant="light"
            onClick={requestOtp}
            loading={sendOtp.isPending}
            // Lines the button up with the input when an error shows under it.
            mb={form.errors.otp ? 22 : 0}
          >
            {sentFor ? 'Resend OTP' : 'Send OTP'}
          </Button>
        </Group>
        {sentFor && !codeMatchesPin && (
          <Text size="xs" c="orange" role="status">
            The PIN changed since the code was sent: send a new code for this PIN.
          </Text>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={verify.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={verify.isPending} disabled={!codeMatchesPin || sendOtp.isPending}>
            Verify OTP
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
