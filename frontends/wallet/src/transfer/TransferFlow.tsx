import { Loader, Stack, Text } from '@mantine/core';
import { errorMessage, MountedFromFirstOpening, toast } from '@qm/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { lazy, useCallback, useState } from 'react';
import { pinStatusQuery } from '../api';
import { WalletModal } from '../components/WalletModal';

// Fetched while the PIN status is checked, the first time Transfer is pressed: with their schemas and
// zod, they are not part of the page's first screen (docs/adr/037-first-screens-without-zod.md).
const SetupPinDialog = lazy(() => import('./SetupPinDialog').then((m) => ({ default: m.SetupPinDialog })));
const TransferDialog = lazy(() => import('./TransferDialog').then((m) => ({ default: m.TransferDialog })));

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
      {/* From the PIN check on: their code arrives while it runs. */}
      <MountedFromFirstOpening opened={step !== 'idle'}>
        <SetupPinDialog opened={step === 'setup-pin'} onClose={close} onDone={openTransfer} />
        <TransferDialog opened={step === 'transfer'} onClose={close} available={available} />
      </MountedFromFirstOpening>
    </>
  );

  return { start, checking: step === 'checking', dialogs };
}
