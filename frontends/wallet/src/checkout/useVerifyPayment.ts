import type { VerifyPaymentBody } from '@qm/contracts/rest';
import { toast, useIdempotentAttempt } from '@qm/ui';
import { useMutation } from '@tanstack/react-query';
import { useRefreshWallet, verifyPayment } from '../api';

export const PAYMENT_FAILED_TITLE = 'Payment Failed';

/**
 * The last step of every provider's checkout: POST /api/verify-payment with what the checkout handed the
 * page, then the product reference's toasts (§8) and a refresh of balance and history (§4).
 */
export function useVerifyPayment(onPaid: () => void) {
  const attempt = useIdempotentAttempt();
  const refreshWallet = useRefreshWallet();
  return useMutation({
    mutationFn: (proof: VerifyPaymentBody) => verifyPayment(proof, attempt.keyFor(proof)),
    // The client's one automatic retry (network, 5xx) carries the same Idempotency-Key: no second effect.
    onSuccess: () => {
      attempt.settle();
      toast({ color: 'green', title: 'Payment Successful', message: 'Your wallet has been credited.' });
      void refreshWallet();
      onPaid();
    },
    onError: (error) => {
      attempt.settle(error);
      toast({
        color: 'red',
        title: 'Payment Verification Failed',
        message: 'Please contact support if your wallet is not credited.',
      });
      // A credit may still have landed (e.g. through the provider's webhook).
      void refreshWallet();
    },
  });
}
