import { ActionIcon, Button, useMantineColorScheme } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';
import { useSyncExternalStore } from 'react';

const SCHEME_ATTRIBUTE = 'data-mantine-color-scheme';

function onSchemeChange(callback: () => void): () => void {
  const observer = new MutationObserver(callback);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: [SCHEME_ATTRIBUTE] });
  return () => observer.disconnect();
}

const schemeShown = () =>
  document.documentElement.getAttribute(SCHEME_ATTRIBUTE) === 'dark' ? 'dark' : 'light';

/**
 * The scheme on screen, as theme-init.js and Mantine set it on <html>. While React hydrates the
 * prerendered landing page it is "light", as the prerender rendered it (ADR 018), and the real one
 * right after; any other render reads the real one at once.
 */
function useSchemeShown(): 'light' | 'dark' {
  return useSyncExternalStore(onSchemeChange, schemeShown, () => 'light');
}

/** Flips light/dark and saves the choice (localStorage "theme", through Mantine's colour-scheme manager). */
function useThemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const computed = useSchemeShown();
  const next = computed === 'dark' ? 'light' : 'dark';
  return { computed, next, toggle: () => setColorScheme(next) };
}

export function ThemeToggle({ variant = 'icon' }: { variant?: 'icon' | 'button' }) {
  const { computed, next, toggle } = useThemeToggle();
  const label = `Switch to ${next} theme`;
  const icon = computed === 'dark' ? <IconSun size={18} /> : <IconMoon size={18} />;

  if (variant === 'button') {
    return (
      <Button variant="default" leftSection={icon} onClick={toggle} data-testid="theme-toggle" fullWidth>
        {label}
      </Button>
    );
  }
  // The browser's own tooltip (title): Mantine's Tooltip would bring floating-ui to every page.
  return (
    <ActionIcon
      variant="default"
      size="lg"
      onClick={toggle}
      aria-label={label}
      title={label}
      data-testid="theme-toggle"
    >
      {icon}
    </ActionIcon>
  );
}
