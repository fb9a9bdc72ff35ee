import { Loader, Stack, Text } from '@mantine/core';
import { toast, errorMessage } from '@qm/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { pinStatusQuery } from '../api';
import { WalletModal } from '../components/WalletModal';
import { SetupPinDialog } from './SetupPinDialog';
import { TransferDialog } from './TransferDialog';

type Step = 'idle' | 'checking' | 'setup-pin' | 'transfer';

/**
 * What the Transfer button starts (docs/product.md §2, §4): "Checking PIN Status" while the PIN status loads, then
 * the Setup Wallet PIN dialog if no PIN is set (which hands over to the transfer dialog), else the
 * transfer dialog.
 */
export function useTransferFlow(available: string | undefined) {
  const queryClient = useQueryClient();
  const [step, setStep] = useState<Step>('idle');

  const check = useMutation({
    mutationFn: () => queryClient.fetchQuery(pinStatusQuery()),
    retry: false,
    // Only if the progress dialog is still open (Escape closes it without waiting for the answer).
    onSuccess: ({ isPinSetup }) =>
      setStep((now) => (now === 'checking' ? (isPinSetup ? 'transfer' : 'setup-pin') : now)),
    onError: (error) => {
      setStep((now) => (now === 'checking' ? 'idle' : now));
      toast({ color: 'red', title: 'Error', message: errorMessage(error, 'Failed to check PIN status') });
    },
  });

  const start = () => {
    setStep('checking');
    check.mutate();
  };
  const close = useCallback(() => setStep('idle'), []);
  const openTransfer = useCallback(() => setStep('transfer'), []);

  const dialogs = (
    <>
      <WalletModal
        opened={step === 'checking'}
        onClose={close}
        title="Checking PIN Status"
        withCloseButton={false}
        closeOnClickOutside={false}
        size="sm"
        fullScreen={false}
      >
        <Stack align="center" gap="sm" py="sm" role="status" aria-live="polite">
          <Loader />
          <Text size="sm" c="dimmed">
            Checking whether your wallet PIN is set up...
          </Text>
        </Stack>
      </WalletModal>
      <SetupPinDialog opened={step === 'setup-pin'} onClose={close} onDone={openTransfer} />
      <TransferDialog opened={step === 'transfer'} onClose={close} available={available} />
    </>
  );

  return { start, checking: step === 'checking', dialogs };
}
