import { type CurrentUser, MountedFromFirstOpening, useOpenedOnce } from '@qm/ui';
import { lazy, useCallback, useRef, useState } from 'react';
import { AssistantButton } from './AssistantButton';

const loadSession = () => import('./AssistantSession');
const AssistantSession = lazy(loadSession);

/**
 * The assistant's button for a signed-in user, and its panel once opened; its own chunk, so visitors
 * never load it. The panel's code is fetched when the button is first pointed at, focused or pressed.
 */
export default function AssistantWidget({ user }: { user: CurrentUser }) {
  const [opened, setOpened] = useState(false);
  const used = useOpenedOnce(opened);
  const button = useRef<HTMLButtonElement>(null);

  const close = useCallback(() => {
    setOpened(false);
    button.current?.focus();
  }, []);
  const toggle = () => {
    if (opened) return close();
    setOpened(true);
  };
  const prepare = () => void loadSession().catch(() => undefined);

  return (
    <>
      <MountedFromFirstOpening opened={opened}>
        <AssistantSession user={user} opened={opened} onClose={close} />
      </MountedFromFirstOpening>
      <AssistantButton
        opened={opened}
        onToggle={toggle}
        onIntent={prepare}
        buttonRef={button}
        controlsPanel={used}
      />
    </>
  );
}
