import { notifications, type NotificationData } from '@mantine/notifications';
import { useCallback, useRef } from 'react';

/**
 * Toasts of one multi-step flow (password reset, password change): each replaces the flow's previous one
 * instead of queueing behind it, so "OTP Verified" does not wait five seconds behind "OTP Sent" (only one
 * toast is visible at a time, docs/product.md §9).
 */
export function useFlowToast() {
  const last = useRef<string | undefined>(undefined);
  return useCallback((data: NotificationData) => {
    if (last.current) notifications.hide(last.current);
    last.current = notifications.show(data);
  }, []);
}
