import { Alert, Button, Group, Loader, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { TransferForm, WALLET_LIMITS, WALLET_MESSAGES } from '@qm/contracts/rest';
import { formatINR, toast, errorMessage, useIdempotentAttempt } from '@qm/ui';
import { IconAlertTriangle, IconCircleCheckFilled, IconCircleXFilled } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { transfer, useRefreshWallet, type TransferRequest } from '../api';
import { WalletModal } from '../components/WalletModal';
import type { Eligibility } from './eligibility';
import { useEligibility } from './useEligibility';

export interface TransferDialogProps {
  opened: boolean;
  onClose: () => void;
  /** What may be sent now (balance less held funds), shown as a hint. */
  available?: string;
}

/** Transfer (docs/product.md §2, §5): receiver with the live eligibility indicator, amount and PIN. */
export function TransferDialog({ opened, onClose, available }: TransferDialogProps) {
  return (
    <WalletModal opened={opened} onClose={onClose} title="Transfer Money">
      {opened && <TransferFormBody onDone={onClose} available={available} />}
    </WalletModal>
  );
}

const FAILED = 'Failed to transfer money';

function TransferFormBody({ onDone, available }: { onDone: () => void; available?: string }) {
  const attempt = useIdempotentAttempt();
  const refreshWallet = useRefreshWallet();
  const form = useForm<TransferRequest>({
    mode: 'controlled',
    initialValues: { receiverUsername: '', amount: '', pin: '' },
    validate: zod4Resolver(TransferForm),
  });
  const eligibility = useEligibility(form.values.receiverUsername);

  const send = useMutation({
    mutationFn: (body: TransferRequest) => transfer(body, attempt.keyFor(body)),
    // The client's one automatic retry (network, 5xx) carries the same Idempotency-Key: no second effect.
    onSuccess: (_answer, body) => {
      attempt.settle();
      toast({
        color: 'green',
        title: WALLET_MESSAGES.transferred,
        message: `${formatINR(body.amount)} sent to ${body.receiverUsername}.`,
      });
      void refreshWallet();
      onDone();
    },
    onError: (error) => {
      attempt.settle(error);
      // A wrong PIN is typed again; a lock (423) says until when.
      form.setFieldValue('pin', '');
      toast({ color: 'red', title: 'Transfer failed', message: errorMessage(error, FAILED) });
      // The balance may have changed meanwhile (e.g. "Insufficient wallet balance").
      void refreshWallet();
    },
  });

  const submit = form.onSubmit((values) => {
    if (eligibility.state !== 'eligible') {
      form.setFieldError('receiverUsername', WALLET_MESSAGES.notEligible);
      return;
    }
    send.mutate({
      receiverUsername: values.receiverUsername.trim(),
      amount: values.amount.trim(),
      pin: values.pin,
    });
  });

  const receiverBlocked = eligibility.state === 'checking' || eligibility.state === 'ineligible';
  return (
    <form onSubmit={submit} noValidate aria-label="Transfer">
      <Stack gap="md">
        <TextInput
          label="Receiver's Username"
          placeholder="Enter username"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={WALLET_LIMITS.usernameMaxChars}
          required
          data-autofocus
          rightSection={<EligibilityIcon eligibility={eligibility} />}
          // The indicator sits under the input, where Mantine also links it to the input for screen readers.
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          description={<EligibilityNote eligibility={eligibility} />}
          {...form.getInputProps('receiverUsername')}
        />
        <TextInput
          label="Amount"
          placeholder="0.00"
          leftSection="₹"
          inputMode="decimal"
          autoComplete="off"
          required
          description={available !== undefined ? `Available: ${formatINR(available)}` : undefined}
          {...form.getInputProps('amount')}
        />
        <PasswordInput
          label="PIN"
          placeholder="Your wallet PIN"
          autoComplete="off"
          maxLength={WALLET_LIMITS.pinMaxChars}
          required
          {...form.getInputProps('pin')}
        />
        {send.isError && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="Transfer failed">
            {errorMessage(send.error, FAILED)}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={send.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={send.isPending} disabled={receiverBlocked}>
            Transfer
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function EligibilityIcon({ eligibility }: { eligibility: Eligibility }) {
  if (eligibility.state === 'checking') return <Loader size={16} aria-hidden />;
  if (eligibility.state === 'eligible')
    return <IconCircleCheckFilled size={20} color="var(--mantine-color-green-6)" aria-hidden />;
  if (eligibility.state === 'ineligible' || eligibility.state === 'error')
    return <IconCircleXFilled size={20} color="var(--mantine-color-red-6)" aria-hidden />;
  return null;
}

/** The indicator's words, announced politely as they change. */
function EligibilityNote({ eligibility }: { eligibility: Eligibility }) {
  const text =
    eligibility.state === 'idle'
      ? ''
      : eligibility.state === 'checking'
        ? 'Checking user...'
        : eligibility.message;
  const color =
    eligibility.state === 'eligible' ? 'green' : eligibility.state === 'checking' ? 'dimmed' : 'red';
  return (
    <Text
      component="span"
      size="xs"
      c={color}
      aria-live="polite"
      data-testid="receiver-eligibility"
      data-state={eligibility.state}
      display="block"
      mih={18}
    >
      {text}
    </Text>
  );
}
