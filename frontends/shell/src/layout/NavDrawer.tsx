import { Box, Divider, Drawer, ScrollArea } from '@mantine/core';
import { useCurrentUser } from '@qm/ui';
import { Navigation } from './Navigation';
import { ThemeToggle } from './ThemeToggle';

export interface NavDrawerProps {
  opened: boolean;
  onClose: () => void;
}

/** The side drawer that holds the links and the theme toggle below 768 px. */
export default function NavDrawer({ opened, onClose }: NavDrawerProps) {
  const { isAdmin } = useCurrentUser();
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size="80%"
      hiddenFrom="sm"
      title={isAdmin ? 'Admin Dashboard' : 'Menu'}
      zIndex={1000}
    >
      <ScrollArea.Autosize mah="calc(100dvh - 80px)">
        <Box component="nav" aria-label="Main">
          <Navigation variant="drawer" onNavigate={onClose} />
        </Box>
        <Divider my="md" />
        <ThemeToggle variant="button" />
      </ScrollArea.Autosize>
    </Drawer>
  );
}
