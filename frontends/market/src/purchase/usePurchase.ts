import { ORDER_MESSAGES, type CreateOrderBody } from '@qm/contracts/rest';
import { toast, errorMessage, useIdempotentAttempt } from '@qm/ui';
import { useMutation } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { createOrder, useRefreshAfterPurchase } from '../orders/api';
import { purchaseOutcome, REDIRECT_AFTER_SUCCESS_MS } from './rules';

/**
 * The purchase of docs/product.md §4: idle → processing → success → /orders after 2 s. An order the saga
 * cancelled (the balance or the stock ran out meanwhile) is a failure with its reason; so is a refusal
 * such as the 409 of a changed price, after which the product and the balance are read again so the
 * page shows the new total.
 */
export function usePurchase() {
  const attempt = useIdempotentAttempt();
  const refresh = useRefreshAfterPurchase();
  const navigate = useNavigate();

  const purchase = useMutation({
    // The client's one automatic retry (no answer, 5xx) carries the same key: one order at most.
    mutationFn: (body: CreateOrderBody) => createOrder(body, attempt.keyFor(body)),
    onSuccess: (order) => {
      attempt.settle();
      void refresh();
      if (order.status === 'cancelled') {
        failureToast(order.cancelReason ?? ORDER_MESSAGES.createFailed);
        return;
      }
      toast({
        color: 'green',
        title: ORDER_MESSAGES.purchaseSuccessTitle,
        message: ORDER_MESSAGES.purchaseSuccess,
      });
    },
    onError: (error) => {
      attempt.settle(error);
      void refresh();
      failureToast(errorMessage(error, ORDER_MESSAGES.createFailed));
    },
  });

  const { phase, failure } = purchaseOutcome(
    {
      isPending: purchase.isPending,
      isSuccess: purchase.isSuccess,
      isError: purchase.isError,
      order: purchase.data,
      errorText: purchase.isError ? errorMessage(purchase.error, ORDER_MESSAGES.createFailed) : undefined,
    },
    ORDER_MESSAGES.createFailed,
  );

  useEffect(() => {
    if (phase !== 'success') return;
    const timer = setTimeout(() => void navigate('/orders'), REDIRECT_AFTER_SUCCESS_MS);
    return () => clearTimeout(timer);
  }, [phase, navigate]);

  return { phase, failure, pay: (body: CreateOrderBody) => purchase.mutate(body) };
}

function failureToast(message: string) {
  toast({ color: 'red', title: ORDER_MESSAGES.purchaseFailedTitle, message });
}
