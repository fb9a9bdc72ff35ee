import { Paper, Transition } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import './assistant.css';
import { Composer } from './Composer';
import { MessageList } from './MessageList';
import { PANEL_ID, PANEL_TITLE_ID } from './ids';
import { PanelHeader } from './PanelHeader';
import type { useAssistantContext } from './useAssistantContext';
import type { useChat } from './useChat';

/** docs/product.md §2: the input is focused 100 ms after the panel opens. */
const FOCUS_DELAY_MS = 100;

export interface AssistantPanelProps {
  opened: boolean;
  onClose: () => void;
  greeting: string;
  /** The chips of an empty chat, for the signed-in user's role. */
  chips: readonly string[];
  chat: ReturnType<typeof useChat>;
  context: ReturnType<typeof useAssistantContext>;
}

/**
 * "Military Inventory Assistant" (docs/product.md §2): header with the status and the actions, the conversation,
 * the input. Kept mounted while closed, so a draft and the scroll position survive closing.
 */
export function AssistantPanel({ opened, onClose, greeting, chips, chat, context }: AssistantPanelProps) {
  const [draft, setDraft] = useState('');
  const input = useRef<HTMLTextAreaElement>(null);
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!opened) return;
    const timer = setTimeout(() => input.current?.focus(), FOCUS_DELAY_MS);
    return () => clearTimeout(timer);
  }, [opened]);

  // The input was disabled while the assistant thought: give it the focus back if the panel had it.
  const { pending } = chat;
  useEffect(() => {
    if (pending || !opened) return;
    const active = document.activeElement;
    if (!active || active === document.body || panel.current?.contains(active)) input.current?.focus();
  }, [pending, opened]);

  const send = (text: string) => {
    setDraft(text);
    if (chat.send(text)) setDraft('');
  };

  // Escape closes the panel when the focus is in it (captured: a tooltip would swallow it otherwise).
  useEffect(() => {
    if (!opened) return;
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape' || !(event.target instanceof Node) || !panel.current?.contains(event.target))
        return;
      onClose();
    };
    document.addEventListener('keydown', onKeyDown, true);
    return () => document.removeEventListener('keydown', onKeyDown, true);
  }, [opened, onClose]);

  return (
    <Transition mounted={opened} transition="pop-bottom-right" duration={150} keepMounted>
      {(styles) => (
        <Paper
          ref={panel}
          id={PANEL_ID}
          className="qm-assistant-panel"
          style={styles}
          role="dialog"
          aria-labelledby={PANEL_TITLE_ID}
          shadow="xl"
          radius="md"
          withBorder
          data-testid="assistant-panel"
        >
          <PanelHeader
            contextStatus={context.status}
            deleting={chat.deleting}
            onClear={() => {
              setDraft('');
              chat.clearLocal();
            }}
            onDeleteAll={() => void chat.deleteAll()}
            onRefresh={() => void context.refresh()}
            onClose={onClose}
          />
          <MessageList
            messages={chat.messages}
            greeting={greeting}
            chips={chips}
            restoring={chat.historyStatus === 'loading'}
            pending={chat.pending}
            onChip={send}
          />
          <Composer
            value={draft}
            onChange={setDraft}
            onSend={() => send(draft)}
            thinking={chat.pending}
            inputRef={input}
          />
        </Paper>
      )}
    </Transition>
  );
}
