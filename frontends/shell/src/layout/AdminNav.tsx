import { Button, Divider, Group, NavLink, Popover, Stack, Text } from '@mantine/core';
import { useId, useState } from 'react';
import { useCurrentUser } from '@qm/ui';
import {
  IconChevronDown,
  IconDashboard,
  IconHistory,
  IconLogout,
  IconMessageQuestion,
  IconPackage,
  IconReceiptRefund,
  IconShoppingCart,
  IconUsers,
  IconWallet,
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
  '/admin/refunds': IconReceiptRefund,
  '/admin/users': IconUsers,
  '/admin/wallets': IconWallet,
  '/admin/user-activities': IconHistory,
};

/** Navigation for administrators (Dashboard, Queries, the Admin menu, Sign Out). Nothing for anyone else. */
export function AdminNav({ variant, onNavigate }: NavProps) {
  const { isAdmin } = useCurrentUser();
  const { pathname } = useLocation();
  const signOut = useSignOut();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
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
      {/* A disclosure of links, not a role="menu": a menu may hold only menu items (axe). */}
      <Popover
        position="bottom-end"
        opened={menuOpen}
        onChange={setMenuOpen}
        withinPortal={false}
        withRoles={false}
        shadow="md"
        radius="md"
        returnFocus
      >
        <Popover.Target>
          <Button
            variant={menuActive ? 'light' : 'subtle'}
            color={menuActive ? undefined : 'gray'}
            rightSection={<IconChevronDown size={14} aria-hidden />}
            aria-expanded={menuOpen}
            aria-controls={menuId}
            onClick={() => setMenuOpen((open) => !open)}
          >
            Admin
          </Button>
        </Popover.Target>
        <Popover.Dropdown p={4}>
          <nav id={menuId} aria-label="Admin pages">
            <Stack gap={2}>
              {ADMIN_MENU_LINKS.map(({ to, label }) => {
                const Icon = ICONS[to] ?? IconDashboard;
                return (
                  <NavLink
                    key={to}
                    component={Link}
                    to={to}
                    label={label}
                    leftSection={<Icon size={16} aria-hidden />}
                    active={isActive(pathname, to)}
                    aria-current={isActive(pathname, to) ? 'page' : undefined}
                    onClick={() => setMenuOpen(false)}
                    style={{ borderRadius: 'var(--mantine-radius-sm)' }}
                  />
                );
              })}
            </Stack>
          </nav>
        </Popover.Dropdown>
      </Popover>
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
