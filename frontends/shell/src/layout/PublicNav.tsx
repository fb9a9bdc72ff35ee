import { Button, Group, NavLink, Stack } from '@mantine/core';
import { IconHome, IconInfoCircle, IconLogin, IconMail, IconUserPlus } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router-dom';
import { isActive, PUBLIC_LINKS } from './navLinks';

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
        {PUBLIC_LINKS.map(({ to, label }) => {
          const Icon = ICONS[to] ?? IconHome;
          return (
            <NavLink
              key={to}
              component={Link}
              to={to}
              label={label}
              leftSection={<Icon size={18} />}
              active={isActive(pathname, to)}
              onClick={onNavigate}
            />
          );
        })}
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
      {PUBLIC_LINKS.map(({ to, label }) => (
        <Button
          key={to}
          component={Link}
          to={to}
          variant={isActive(pathname, to) ? 'light' : 'subtle'}
          color={isActive(pathname, to) ? undefined : 'gray'}
        >
          {label}
        </Button>
      ))}
      <Button component={Link} to="/auth" variant="default" ml="xs">
        Sign In
      </Button>
      <Button component={Link} to="/auth?tab=register">
        Request Access
      </Button>
    </Group>
  );
}
