import { Burger, Group } from '@mantine/core';
import { MountedFromFirstOpening } from '@qm/ui';
import { lazy, useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { Logo } from './Logo';
import { Navigation } from './Navigation';
import { ThemeToggle } from './ThemeToggle';

// The drawer (Drawer, ScrollArea) is fetched the first time the burger opens it, not with every page.
const NavDrawer = lazy(() => import('./NavDrawer'));

export interface HeaderProps {
  drawerOpened: boolean;
  toggleDrawer: () => void;
  closeDrawer: () => void;
}

/** Sticky header; below 768 px the links and the theme toggle move into a side drawer. */
export function Header({ drawerOpened, toggleDrawer, closeDrawer }: HeaderProps) {
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
      <MountedFromFirstOpening opened={drawerOpened}>
        <NavDrawer opened={drawerOpened} onClose={closeDrawer} />
      </MountedFromFirstOpening>
    </>
  );
}
