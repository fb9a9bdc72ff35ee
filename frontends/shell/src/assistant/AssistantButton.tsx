import { ActionIcon } from '@mantine/core';
import { IconMessageChatbot, IconX } from '@tabler/icons-react';
import type { Ref } from 'react';
import './assistant.css';
import { PANEL_ID } from './ids';

export interface AssistantButtonProps {
  opened: boolean;
  onToggle: () => void;
  /** Pointed at, focused or pressed: the panel is likely to be wanted next. */
  onIntent?: () => void;
  buttonRef: Ref<HTMLButtonElement>;
  /** The panel is in the page (it is mounted on first open): only then may the button point to it. */
  controlsPanel: boolean;
}

/** The round button at the bottom right that opens and closes the assistant (docs/product.md §2 "Shell"). */
export function AssistantButton({
  opened,
  onToggle,
  onIntent,
  buttonRef,
  controlsPanel,
}: AssistantButtonProps) {
  const label = opened ? 'Close assistant' : 'Open assistant';
  return (
    <ActionIcon
      ref={buttonRef}
      className="qm-assistant-fab"
      size={56}
      radius="xl"
      variant="filled"
      color="army.9"
      onClick={onToggle}
      onPointerEnter={onIntent}
      onPointerDown={onIntent}
      onFocus={onIntent}
      aria-label={label}
      title={label}
      aria-expanded={opened}
      aria-controls={controlsPanel ? PANEL_ID : undefined}
      data-testid="assistant-button"
    >
      {opened ? <IconX size={26} /> : <IconMessageChatbot size={28} />}
    </ActionIcon>
  );
}
