import { Box, Burger, Divider, Drawer, Group, ScrollArea } from '@mantine/core';
import { useCurrentUser } from '@qm/ui';
import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { AdminNav } from './AdminNav';
import { Logo } from './Logo';
import { PublicNav, type NavProps } from './PublicNav';
import { ThemeToggle } from './ThemeToggle';
import { UserNav } from './UserNav';

/** Admin navigation for admins, user navigation for signed-in users, public navigation otherwise. */
function Navigation(props: NavProps) {
  const { user, isAdmin, isLoading } = useCurrentUser();
  if (isLoading) return null;
  if (isAdmin) return <AdminNav {...props} />;
  if (user) return <UserNav {...props} />;
  return <PublicNav {...props} />;
}

export interface HeaderProps {
  drawerOpened: boolean;
  toggleDrawer: () => void;
  closeDrawer: () => void;
}

/** Sticky header; below 768 px the links and the theme toggle move into a side drawer. */
export function Header({ drawerOpened, toggleDrawer, closeDrawer }: HeaderProps) {
  const { isAdmin } = useCurrentUser();
  const location = useLocation();

  // The drawer closes on any navigation.
  useEffect(() => {
    closeDrawer();
  }, [location.key, closeDrawer]);

  return (
    <>
      <Group h="100%" px="md" justify="space-between" wrap="nowrap">
        <Logo />
        <Group gap="sm" wrap="nowrap" visibleFrom="sm" component="nav" aria-label="Main">
          <Navigation variant="header" />
          <ThemeToggle />
        </Group>
        <Burger
          opened={drawerOpened}
          onClick={toggleDrawer}
          hiddenFrom="sm"
          aria-label={drawerOpened ? 'Close navigation' : 'Open navigation'}
        />
      </Group>
      <Drawer
        opened={drawerOpened}
        onClose={closeDrawer}
        position="right"
        size="80%"
        hiddenFrom="sm"
        title={isAdmin ? 'Admin Dashboard' : 'Menu'}
        zIndex={1000}
      >
        <ScrollArea.Autosize mah="calc(100dvh - 80px)">
          <Box component="nav" aria-label="Main">
            <Navigation variant="drawer" onNavigate={closeDrawer} />
          </Box>
          <Divider my="md" />
          <ThemeToggle variant="button" />
        </ScrollArea.Autosize>
      </Drawer>
    </>
  );
}
