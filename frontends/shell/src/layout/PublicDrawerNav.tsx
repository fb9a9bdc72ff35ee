import { Button, NavLink, Stack } from '@mantine/core';
import { IconHome, IconInfoCircle, IconLogin, IconMail, IconUserPlus } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router-dom';
import { PUBLIC_LINKS } from './navLinks';
import { DrawerLinks } from './DrawerLinks';
import type { NavProps } from './PublicNav';

const ICONS: Record<string, typeof IconHome> = {
  '/': IconHome,
  '/about': IconInfoCircle,
  '/contact': IconMail,
};

/** The drawer's navigation for visitors (below 768 px): the header's links with icons. */
export function PublicDrawerNav({ onNavigate }: Pick<NavProps, 'onNavigate'>) {
  const { pathname } = useLocation();
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
