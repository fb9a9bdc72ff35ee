import {
  Avatar,
  Button,
  Divider,
  Group,
  Menu,
  NavLink,
  Stack,
  Text,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useCurrentUser, userInitials } from '@qm/ui';
import {
  IconChevronDown,
  IconHome,
  IconLogout,
  IconShoppingCart,
  IconUser,
  IconWallet,
  IconBuildingStore,
} from '@tabler/icons-react';
import { Link, useLocation } from 'react-router-dom';
import { useSignOut } from '../auth/useSignOut';
import { USER_LINKS } from './navLinks';
import { DrawerLinks } from './DrawerLinks';
import { TopLinkButtons } from './NavParts';
import type { NavProps } from './PublicNav';

const ICONS: Record<string, typeof IconHome> = {
  '/wallet': IconWallet,
  '/market': IconBuildingStore,
  '/orders': IconShoppingCart,
  '/profile': IconUser,
};

/** Navigation for signed-in users (Wallet, Market, Orders, Profile, user menu). Renders nothing otherwise. */
export function UserNav({ variant, onNavigate }: NavProps) {
  const { user } = useCurrentUser();
  const { pathname } = useLocation();
  const signOut = useSignOut();
  if (!user) return null;

  const handleSignOut = () => {
    onNavigate?.();
    signOut.mutate();
  };

  if (variant === 'drawer') {
    return (
      <Stack gap={4}>
        <Text size="sm" c="dimmed">
          Logged in as
        </Text>
        <Text fw={600} mb="xs">
          {user.username}
        </Text>
        <NavLink
          component={Link}
          to="/"
          label="Home"
          leftSection={<IconHome size={18} />}
          onClick={onNavigate}
        />
        <DrawerLinks
          links={USER_LINKS}
          icons={ICONS}
          fallbackIcon={IconHome}
          pathname={pathname}
          onNavigate={onNavigate}
        />
        <Divider my="sm" />
        <Button
          variant="light"
          color="red"
          leftSection={<IconLogout size={18} />}
          onClick={handleSignOut}
          loading={signOut.isPending}
        >
          Sign Out
        </Button>
      </Stack>
    );
  }

  return (
    <Group gap={4} wrap="nowrap">
      <TopLinkButtons links={USER_LINKS} pathname={pathname} />
      <Menu position="bottom-end" withArrow>
        <Menu.Target>
          {/* Named by what it shows (the username) and what it opens, so that a voice user can say
              what they see (WCAG 2.5.3); the avatar's initials repeat the name and are left out. */}
          <UnstyledButton ml="xs">
            <Group gap={6} wrap="nowrap">
              <Avatar size="sm" color="army" radius="xl" aria-hidden>
                {userInitials(user)}
              </Avatar>
              <Text size="sm" fw={500}>
                {user.username}
              </Text>
              <VisuallyHidden>, user menu</VisuallyHidden>
              <IconChevronDown size={14} />
            </Group>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>{user.username}</Menu.Label>
          <Menu.Item component={Link} to="/profile" leftSection={<IconUser size={16} />}>
            Profile
          </Menu.Item>
          <Menu.Item
            color="red"
            leftSection={<IconLogout size={16} />}
            onClick={handleSignOut}
            disabled={signOut.isPending}
          >
            Sign Out
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}
