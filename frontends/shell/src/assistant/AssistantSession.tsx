import { chatChipsFor } from '@qm/contracts/rest';
import type { CurrentUser } from '@qm/ui';
import { useMemo } from 'react';
import { AssistantPanel } from './AssistantPanel';
import { greetingFor } from './greeting';
import { useAssistantContext } from './useAssistantContext';
import { useChat } from './useChat';

/** The profile's division, when the current-user answer carries one. */
const divisionOf = (user: CurrentUser) => (user as CurrentUser & { division?: string | null }).division;

/**
 * The panel with its conversation, from the first time it is opened: context and history load then, not
 * on every page load, and the panel mounts then too (its composer measures itself in a layout effect).
 * Its own chunk: the chat's schemas check the answers with zod, which a page's first screen need not
 * evaluate (docs/adr/037-first-screens-without-zod.md). Stays mounted once opened, so the conversation
 * outlives closing the panel.
 */
export default function AssistantSession({
  user,
  opened,
  onClose,
}: {
  user: CurrentUser;
  opened: boolean;
  onClose: () => void;
}) {
  const context = useAssistantContext(true);
  const chat = useChat({ enabled: true, context: context.context });
  const person = useMemo(
    () => ({ firstName: user.firstName, role: user.role, isAdmin: user.isAdmin, division: divisionOf(user) }),
    [user],
  );
  const greeting = useMemo(() => greetingFor(person), [person]);
  const chips = useMemo(() => chatChipsFor(person), [person]);
  return (
    <AssistantPanel
      opened={opened}
      onClose={onClose}
      greeting={greeting}
      chips={chips}
      chat={chat}
      context={context}
    />
  );
}
