import { Button, Group, NavLink, Stack } from '@mantine/core';
import { IconHome, IconInfoCircle, IconLogin, IconMail, IconUserPlus } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router-dom';
import { PUBLIC_LINKS } from './navLinks';
import { DrawerLinks, TopLinkButtons } from './NavParts';

const ICONS: Record<string, typeof IconHome> = {
  '/': IconHome,
  '/about': IconInfoCircle,
  '/contact': IconMail,
};

export interface NavProps {
  variant: 'header' | 'drawer';
  /** Called after a link is followed (the drawer closes). */
  onNavigate?: () => void;
}

/** Navigation for visitors: home, About Us, Contact, Sign In and Request Access. */
export function PublicNav({ variant, onNavigate }: NavProps) {
  const { pathname } = useLocation();

  if (variant === 'drawer') {
    return (
      <Stack gap={4}>
        <DrawerLinks
          links={PUBLIC_LINKS}
          icons={ICONS}
          fallbackIcon={IconHome}
          pathname={pathname}
          onNavigate={onNavigate}
        />
        <NavLink
          component={Link}
          to="/auth"
          label="Sign In"
          leftSection={<IconLogin size={18} />}
          onClick={onNavigate}
        />
        <Button
          component={Link}
          to="/auth?tab=register"
          leftSection={<IconUserPlus size={18} />}
          onClick={onNavigate}
          mt="sm"
        >
          Request Access
        </Button>
      </Stack>
    );
  }

  return (
    <Group gap={4} wrap="nowrap">
      <TopLinkButtons links={PUBLIC_LINKS} pathname={pathname} />
      <Button component={Link} to="/auth" variant="default" ml="xs">
        Sign In
      </Button>
      <Button component={Link} to="/auth?tab=register">
        Request Access
      </Button>
    </Group>
  );
}
