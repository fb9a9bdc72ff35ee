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
import { IconCircleCheck, IconLock } from '@tabler/icons-react';
import { useChangePasswordFlow } from './useChangePasswordFlow';

export { RESEND_SECONDS, SUCCESS_CLOSE_MS, type ChangePasswordStep } from './useChangePasswordFlow';

/**
 * "Change Password" from the Security Settings tab. Opening it sends a code to the registered email
 * (otp-verification), then current and new password (enter-password), then "Password Changed"
 * (success), which closes after 3 s. Closing at any time resets it; opening again sends a fresh code.
 */
export function ChangePasswordSection() {
  const {
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
  } = useChangePasswordFlow();

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
