import { Anchor, Group, Text, ThemeIcon, VisuallyHidden } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import { Link } from 'react-router-dom';

/** Links home; the full name from 768 px up, a short title below. */
export function Logo({ onClick }: { onClick?: () => void }) {
  return (
    <Anchor component={Link} to="/" onClick={onClick} underline="never" c="inherit">
      <Group gap="xs" wrap="nowrap">
        <ThemeIcon size="lg" radius="md" variant="filled">
          <IconShieldCheck size={20} />
        </ThemeIcon>
        <Text fw={800} size="lg" visibleFrom="sm" style={{ letterSpacing: '0.02em' }}>
          Quartermaster
        </Text>
        <Text fw={800} size="lg" hiddenFrom="sm">
          QM
        </Text>
        {/* Named by the text it shows, then what it does (WCAG 2.5.3): "Quartermaster home" from 768 px
            up, "QM, Quartermaster home" on a phone. */}
        <VisuallyHidden hiddenFrom="sm">, Quartermaster home</VisuallyHidden>
        <VisuallyHidden visibleFrom="sm"> home</VisuallyHidden>
      </Group>
    </Anchor>
  );
}
