import { chatChipsFor } from '@qm/contracts/rest';
import type { CurrentUser } from '@qm/ui';
import { useCallback, useMemo, useRef, useState } from 'react';
import { AssistantButton } from './AssistantButton';
import { AssistantPanel } from './AssistantPanel';
import { greetingFor } from './greeting';
import { useAssistantContext } from './useAssistantContext';
import { useChat } from './useChat';

/** The profile's division, when the current-user answer carries one. */
const divisionOf = (user: CurrentUser) => (user as CurrentUser & { division?: string | null }).division;

/** The assistant's button and panel for a signed-in user; its own chunk, so visitors never load it. */
export default function AssistantWidget({ user }: { user: CurrentUser }) {
  const [opened, setOpened] = useState(false);
  // Context and history load the first time the panel opens, not on every page load; the panel itself is
  // mounted then too (its composer measures itself in a layout effect: page-load work for a closed panel).
  const [used, setUsed] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const context = useAssistantContext(used);
  const chat = useChat({ enabled: used, context: context.context });
  const person = useMemo(
    () => ({ firstName: user.firstName, role: user.role, isAdmin: user.isAdmin, division: divisionOf(user) }),
    [user],
  );
  const greeting = useMemo(() => greetingFor(person), [person]);
  const chips = useMemo(() => chatChipsFor(person), [person]);

  const close = useCallback(() => {
    setOpened(false);
    button.current?.focus();
  }, []);
  const toggle = () => {
    if (opened) return close();
    setOpened(true);
    setUsed(true);
  };

  return (
    <>
      {used && (
        <AssistantPanel
          opened={opened}
          onClose={close}
          greeting={greeting}
          chips={chips}
          chat={chat}
          context={context}
        />
      )}
      <AssistantButton opened={opened} onToggle={toggle} buttonRef={button} controlsPanel={used} />
    </>
  );
}
