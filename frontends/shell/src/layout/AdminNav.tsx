import { Button, Divider, Group, Menu, Stack, Text } from '@mantine/core';
import { useCurrentUser } from '@qm/ui';
import {
  IconChevronDown,
  IconDashboard,
  IconHistory,
  IconLogout,
  IconMessageQuestion,
  IconPackage,
  IconShoppingCart,
  IconUsers,
} from '@tabler/icons-react';
import { Link, useLocation } from 'react-router-dom';
import { useSignOut } from '../auth/useSignOut';
import { ADMIN_MENU_LINKS, ADMIN_TOP_LINKS, isActive } from './navLinks';
import { DrawerLinks } from './DrawerLinks';
import { TopLinkButtons } from './NavParts';
import type { NavProps } from './PublicNav';

const ICONS: Record<string, typeof IconDashboard> = {
  '/admin/dashboard': IconDashboard,
  '/admin/queries': IconMessageQuestion,
  '/admin/products': IconPackage,
  '/admin/orders': IconShoppingCart,
  '/admin/users': IconUsers,
  '/admin/user-activities': IconHistory,
};

/** Navigation for administrators (Dashboard, Queries, the Admin menu, Sign Out). Nothing for anyone else. */
export function AdminNav({ variant, onNavigate }: NavProps) {
  const { isAdmin } = useCurrentUser();
  const { pathname } = useLocation();
  const signOut = useSignOut();
  if (!isAdmin) return null;

  const handleSignOut = () => {
    onNavigate?.();
    signOut.mutate();
  };

  if (variant === 'drawer') {
    return (
      <Stack gap={4}>
        <Text size="sm" c="dimmed" mb="xs">
          Logged in as Administrator
        </Text>
        <DrawerLinks
          links={[...ADMIN_TOP_LINKS, ...ADMIN_MENU_LINKS]}
          icons={ICONS}
          fallbackIcon={IconDashboard}
          pathname={pathname}
          onNavigate={onNavigate}
        />
        <Divider my="sm" />
        <Button
          variant="light"
          color="red"
          leftSection={<IconLogout size={18} />}
          onClick={handleSignOut}
          disabled={signOut.isPending}
        >
          Sign Out
        </Button>
      </Stack>
    );
  }

  const menuActive = ADMIN_MENU_LINKS.some(({ to }) => isActive(pathname, to));
  return (
    <Group gap={4} wrap="nowrap">
      <TopLinkButtons links={ADMIN_TOP_LINKS} pathname={pathname} />
      <Menu position="bottom-end" withArrow>
        <Menu.Target>
          <Button
            variant={menuActive ? 'light' : 'subtle'}
            color={menuActive ? undefined : 'gray'}
            rightSection={<IconChevronDown size={14} />}
          >
            Admin
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {ADMIN_MENU_LINKS.map(({ to, label }) => {
            const Icon = ICONS[to] ?? IconDashboard;
            return (
              <Menu.Item key={to} component={Link} to={to} leftSection={<Icon size={16} />}>
                {label}
              </Menu.Item>
            );
          })}
        </Menu.Dropdown>
      </Menu>
      <Button
        variant="default"
        leftSection={<IconLogout size={16} />}
        onClick={handleSignOut}
        disabled={signOut.isPending}
        ml="xs"
      >
        Sign Out
      </Button>
    </Group>
  );
}
