import { Button, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { CodeStep } from './CodeStep';
import type { useEmailChangeFlow } from './useEmailChangeFlow';

/**
 * "Change email", opened when the profile form is saved with another address: the current
 * password, then the code we sent to the new address ("Confirm email"). Nothing changes before.
 */
export function EmailChangeDialog({ flow }: { flow: ReturnType<typeof useEmailChangeFlow> }) {
  const { step, newEmail, passwordForm, sendCode, confirm, cooldown } = flow;
  return (
    <Modal
      opened={flow.opened}
      onClose={flow.close}
      centered
      title="Change email"
      radius="md"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {step === 'password' && (
        <form
          noValidate
          aria-label="Current password"
          onSubmit={passwordForm.onSubmit((values) => sendCode.mutate(values.currentPassword))}
        >
          <Stack gap="md">
            <Text size="sm">
              To change your email to <strong>{newEmail}</strong>, enter your current password. We will send a
              code to the new address.
            </Text>
            <PasswordInput
              label="Current Password"
              autoComplete="current-password"
              required
              data-autofocus
              {...passwordForm.getInputProps('currentPassword')}
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={flow.close}>
                Cancel
              </Button>
              <Button type="submit" loading={sendCode.isPending}>
                Send code
              </Button>
            </Group>
          </Stack>
        </form>
      )}
      {step === 'code' && (
        <CodeStep
          name="Confirm email"
          status={`We sent a code to ${newEmail}. Enter it to confirm your new email.`}
          form={flow.otpForm}
          onSubmit={(otp) => confirm.mutate(otp)}
          submitLabel="Confirm email"
          submitting={confirm.isPending}
          cooldown={cooldown}
          onResend={flow.resend}
          resending={sendCode.isPending}
        />
      )}
    </Modal>
  );
}
