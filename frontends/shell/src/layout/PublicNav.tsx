import { Button, Group } from '@mantine/core';
import { Link, useLocation } from 'react-router-dom';
import { PUBLIC_LINKS } from './navLinks';
import { TopLinkButtons } from './NavParts';

export interface NavProps {
  variant: 'header' | 'drawer';
  /** Called after a link is followed (the drawer closes). */
  onNavigate?: () => void;
}

/** The header's navigation for visitors: home, About Us, Contact, Sign In and Request Access. */
export function PublicNav() {
  const { pathname } = useLocation();

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
