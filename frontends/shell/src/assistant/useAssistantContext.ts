import { notifications } from '@mantine/notifications';
import { useCallback, useEffect, useRef, useState } from 'react';
import { loadAssistantContext, type AssistantContext } from './api';
import { ASSISTANT_TOASTS } from './texts';

/** docs/product.md §4: context loading goes initializing → refreshing (when asked) → done. */
export type ContextStatus = 'initializing' | 'refreshing' | 'done';

/**
 * The account context of the assistant, loaded the first time `enabled` is true (the panel is opened
 * by a signed-in user), and again on refresh, with the toasts of docs/product.md §8.
 */
export function useAssistantContext(enabled: boolean) {
  const [status, setStatus] = useState<ContextStatus>('initializing');
  const [context, setContext] = useState<AssistantContext | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (!enabled || started.current) return;
    started.current = true;
    loadAssistantContext()
      .then(setContext, () => notifications.show({ color: 'red', ...ASSISTANT_TOASTS.contextLoadingError }))
      .finally(() => setStatus('done'));
  }, [enabled]);

  const refresh = useCallback(async () => {
    setStatus('refreshing');
    try {
      setContext(await loadAssistantContext());
      notifications.show({ color: 'green', ...ASSISTANT_TOASTS.contextUpdated });
    } catch {
      notifications.show({ color: 'red', ...ASSISTANT_TOASTS.contextUpdateFailed });
    } finally {
      setStatus('done');
    }
  }, []);

  return { status, context, refresh };
}
