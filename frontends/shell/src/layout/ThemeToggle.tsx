import { ActionIcon, Button, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';

/** Flips light/dark and saves the choice (localStorage "theme", through Mantine's colour-scheme manager). */
function useThemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light');
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
