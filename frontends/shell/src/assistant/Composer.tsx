import { ActionIcon, Group, Textarea, Tooltip } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import type { KeyboardEvent, Ref } from 'react';

export interface ComposerProps {
  value: string;
  onChange: (value: string) => void;
  onSend: () => void;
  /** The assistant is thinking: input and send button are disabled (docs/product.md §5). */
  thinking: boolean;
  inputRef: Ref<HTMLTextAreaElement>;
}

/** The input box: Enter sends, Shift+Enter starts a new line. */
export function Composer({ value, onChange, onSend, thinking, inputRef }: ComposerProps) {
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    onSend();
  };
  return (
    <Group className="qm-assistant-composer" gap="xs" wrap="nowrap" align="flex-end">
      <Textarea
        ref={inputRef}
        flex={1}
        autosize
        minRows={1}
        maxRows={4}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        onKeyDown={onKeyDown}
        disabled={thinking}
        placeholder={thinking ? 'The assistant is thinking...' : 'Type your question...'}
        aria-label="Message to the assistant"
      />
      <Tooltip label="Send message" withinPortal zIndex={300}>
        <ActionIcon
          size={36}
          variant="filled"
          color="army.9"
          aria-label="Send message"
          onClick={onSend}
          disabled={thinking || value.trim() === ''}
        >
          <IconSend size={18} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
