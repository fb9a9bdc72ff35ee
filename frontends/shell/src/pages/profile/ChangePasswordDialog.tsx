import { Alert, Button, Group, Modal, PasswordInput, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck, IconLock } from '@tabler/icons-react';
import { CodeStep } from './CodeStep';
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
          <CodeStep
            name="Verify code"
            status={
              sendOtp.isPending
                ? 'Sending a 6-digit verification code to your registered email...'
                : sendOtp.isError
                  ? 'The verification code could not be sent. Use Resend OTP to try again.'
                  : 'We sent a 6-digit verification code to your registered email. Enter it below to continue.'
            }
            notice={
              sendWaiting &&
              cooldown.active && (
                <Alert color="blue" variant="light">
                  A code was sent less than 30 seconds ago and is still valid. You can ask for a new one when
                  the countdown ends.
                </Alert>
              )
            }
            form={otpForm}
            onSubmit={(otp) => verifyOtp.mutate(otp)}
            submitLabel="Verify OTP"
            submitting={verifyOtp.isPending}
            cooldown={cooldown}
            onResend={() => sendOtp.mutate()}
            resending={sendOtp.isPending}
          />
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
