import { notifications } from '@mantine/notifications';
import { CHAT_LIMITS, CHAT_MESSAGES } from '@qm/contracts/rest';
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  askFallback,
  clearChatHistory,
  fetchChatHistory,
  sendChatMessage,
  type AssistantContext,
} from './api';
import {
  assistantMessage,
  contextMessages,
  userMessage,
  visibleHistory,
  type PanelMessage,
} from './messages';
import { applyOutcome, deliver, type SendOutcome } from './sendFlow';
import { checkSend } from './sendRules';
import { ASSISTANT_TEXTS, ASSISTANT_TOASTS } from './texts';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type HistoryStatus = 'idle' | 'loading' | 'done';

/** The toasts of an outcome (docs/product.md §8): "Action Completed" for an action, "Connection Error" for a failure. */
function announceOutcome(outcome: SendOutcome) {
  if (outcome.kind === 'reply' && outcome.reply.actionTaken)
    notifications.show({
      color: 'green',
      ...ASSISTANT_TOASTS.actionCompleted,
      message: outcome.reply.actionTaken,
    });
  if (outcome.kind === 'failed') notifications.show({ color: 'red', ...ASSISTANT_TOASTS.connectionError });
}

/**
 * The conversation of the panel: its messages, the server session, sending (docs/product.md §5 rules, the 300 ms
 * delay, the loading message, the fallback), clearing locally and deleting the server's memory.
 * `enabled` (the panel was opened) restores the active session from the server once.
 */
export function useChat({ enabled, context }: { enabled: boolean; context: AssistantContext | null }) {
  const [messages, setMessages] = useState<PanelMessage[]>([]);
  const [pending, setPending] = useState(false);
  const [historyDone, setHistoryDone] = useState(false);
  const [deleting, setDeleting] = useState(false);
  // Mirrors of the state, read synchronously by the send rules (two quick clicks see the first).
  const messagesRef = useRef<PanelMessage[]>([]);
  const pendingRef = useRef(false);
  const sessionRef = useRef<number | null>(null);
  const contextRef = useRef(context);
  /** Bumped by every clear: an answer to a conversation that was cleared is dropped. */
  const generation = useRef(0);

  useEffect(() => {
    contextRef.current = context;
  }, [context]);

  const update = useCallback((change: (previous: PanelMessage[]) => PanelMessage[]) => {
    messagesRef.current = change(messagesRef.current);
    setMessages(messagesRef.current);
  }, []);

  const setBusy = useCallback((busy: boolean) => {
    pendingRef.current = busy;
    setPending(busy);
  }, []);

  /** Starts over: no messages, no session (the next message opens a new one), nothing pending. */
  const reset = useCallback(
    (first: PanelMessage[] = []) => {
      generation.current += 1;
      sessionRef.current = null;
      update(() => first);
      setBusy(false);
    },
    [update, setBusy],
  );

  // Restore the active session once, when the panel is first opened, unless a chat has begun meanwhile.
  const historyStarted = useRef(false);
  useEffect(() => {
    if (!enabled || historyStarted.current) return;
    historyStarted.current = true;
    const started = generation.current;
    fetchChatHistory()
      .then((history) => {
        if (generation.current !== started || messagesRef.current.length > 0) return;
        sessionRef.current = history.sessionId;
        update(() => visibleHistory(history.messages));
      })
      .catch(() => {
        // Nothing to restore: the panel starts with the greeting.
      })
      .finally(() => setHistoryDone(true));
  }, [enabled, update]);
  const historyStatus: HistoryStatus = historyDone ? 'done' : enabled ? 'loading' : 'idle';

  const settle = useCallback(
    (loadingKey: string, userKey: string, outcome: SendOutcome) => {
      update((previous) => applyOutcome(previous, { loadingKey, userKey }, outcome, Date.now()));
      if (outcome.kind === 'reply') sessionRef.current = outcome.reply.sessionId;
      announceOutcome(outcome);
    },
    [update],
  );

  const run = useCallback(
    async (text: string, loadingKey: string, userKey: string, history: PanelMessage[]) => {
      const started = generation.current;
      let outcome: SendOutcome;
      try {
        await wait(CHAT_LIMITS.sendDelayMs);
        outcome = await deliver(
          {
            send: sendChatMessage,
            fallback: (query, conversation) => askFallback(query, conversation, contextRef.current),
          },
          text,
          sessionRef.current,
          contextMessages(history),
        );
      } catch {
        outcome = { kind: 'failed', text: ASSISTANT_TEXTS.sendFailure };
      }
      if (generation.current !== started) return; // the chat was cleared meanwhile
      settle(loadingKey, userKey, outcome);
      setBusy(false);
    },
    [settle, setBusy],
  );

  /** Sends `text` if the docs/product.md §5 rules allow it; answers whether it was sent. */
  const send = useCallback(
    (text: string): boolean => {
      const now = Date.now();
      const check = checkSend({ text, now, pending: pendingRef.current, messages: messagesRef.current });
      if (!check.ok) return false;
      const history = messagesRef.current;
      const question = userMessage(check.text, now);
      const loading = assistantMessage(CHAT_MESSAGES.loading, now, true);
      update((previous) => [...previous, question, loading]);
      setBusy(true);
      void run(check.text, loading.key, question.key, history);
      return true;
    },
    [run, update, setBusy],
  );

  /** Clear current chat: local only; the next message starts a new session. */
  const clearLocal = useCallback(() => {
    reset();
    notifications.show({ color: 'green', ...ASSISTANT_TOASTS.chatCleared });
  }, [reset]);

  /** Delete all memory: every stored session and message on the server. */
  const deleteAll = useCallback(async () => {
    setDeleting(true);
    try {
      await clearChatHistory();
      reset([assistantMessage(ASSISTANT_TEXTS.memoryCleared, Date.now())]);
      notifications.show({ color: 'green', ...ASSISTANT_TOASTS.memoryDeleted });
    } catch {
      notifications.show({ color: 'red', ...ASSISTANT_TOASTS.clearFailed });
    } finally {
      setDeleting(false);
    }
  }, [reset]);

  return { messages, pending, historyStatus, deleting, send, clearLocal, deleteAll };
}
