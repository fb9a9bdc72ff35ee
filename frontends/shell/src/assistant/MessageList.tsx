import { Button, Center, Group, Loader, VisuallyHidden } from '@mantine/core';
import { timeOfDay } from '@qm/contracts/rest';
import { useEffect, useRef, useState } from 'react';
import type { PanelMessage } from './messages';

/** One message: plain text with its line breaks kept (never parsed as HTML), and its time. */
function MessageRow({
  message,
}: {
  message: Pick<PanelMessage, 'role' | 'content' | 'timestamp' | 'isLoading'>;
}) {
  const who = message.role === 'user' ? 'You' : 'Assistant';
  return (
    <div
      className="qm-assistant-row"
      data-role={message.role}
      data-testid="assistant-message"
      data-loading={message.isLoading || undefined}
      aria-busy={message.isLoading || undefined}
    >
      <div className="qm-assistant-bubble">
        <VisuallyHidden component="span">{who}: </VisuallyHidden>
        {message.isLoading ? (
          <Group gap={8} wrap="nowrap" align="center" component="span">
            <Loader type="dots" size="xs" color="army.6" aria-hidden />
            <span>{message.content}</span>
          </Group>
        ) : (
          message.content
        )}
      </div>
      {!message.isLoading && (
        <time className="qm-assistant-time" dateTime={new Date(message.timestamp).toISOString()}>
          {timeOfDay(message.timestamp)}
        </time>
      )}
    </div>
  );
}

export interface MessageListProps {
  messages: PanelMessage[];
  greeting: string;
  /** The chips for the user's role (@qm/contracts chatChipsFor). */
  chips: readonly string[];
  /** The server's conversation is still being restored. */
  restoring: boolean;
  pending: boolean;
  onChip: (chip: string) => void;
}

/** The conversation, or for an empty chat the greeting and the role's four chips (docs/product.md §2). */
export function MessageList({ messages, greeting, chips, restoring, pending, onChip }: MessageListProps) {
  const list = useRef<HTMLDivElement>(null);
  const [greetedAt] = useState(() => Date.now());

  // The newest message stays in view.
  useEffect(() => {
    const element = list.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [messages]);

  const empty = messages.length === 0;
  return (
    <div
      ref={list}
      className="qm-assistant-messages"
      role="log"
      aria-live="polite"
      aria-label="Conversation"
      // A long conversation scrolls, and may hold nothing focusable: a keyboard reaches it to scroll it.
      tabIndex={0}
      data-testid="assistant-messages"
    >
      {restoring && empty ? (
        <Center flex={1}>
          <Loader size="sm" color="army.6" role="status" aria-label="Loading the conversation" />
        </Center>
      ) : empty ? (
        <>
          <MessageRow message={{ role: 'assistant', content: greeting, timestamp: greetedAt }} />
          <Group gap={8} data-testid="assistant-chips" aria-label="Suggestions" role="group">
            {chips.map((chip) => (
              <Button
                key={chip}
                variant="default"
                size="compact-sm"
                radius="xl"
                fw={500}
                disabled={pending}
                onClick={() => onChip(chip)}
              >
                {chip}
              </Button>
            ))}
          </Group>
        </>
      ) : (
        messages.map((message) => <MessageRow key={message.key} message={message} />)
      )}
    </div>
  );
}
