import { Anchor, Group, Text, ThemeIcon } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import { Link } from 'react-router-dom';

/** Links home; the full name from 768 px up, a short title below. */
export function Logo({ onClick }: { onClick?: () => void }) {
  return (
    <Anchor
      component={Link}
      to="/"
      onClick={onClick}
      underline="never"
      c="inherit"
      aria-label="Quartermaster home"
    >
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
      </Group>
    </Anchor>
  );
}
