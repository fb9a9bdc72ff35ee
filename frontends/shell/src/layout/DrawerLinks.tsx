import { NavLink } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { isActive, type NavLinkItem } from './navLinks';

/** Drawer links with their icons; following one closes the drawer (onNavigate). */
export function DrawerLinks(props: {
  links: NavLinkItem[];
  icons: Record<string, Icon>;
  fallbackIcon: Icon;
  pathname: string;
  onNavigate?: () => void;
}) {
  return props.links.map(({ to, label }) => {
    const LinkIcon = props.icons[to] ?? props.fallbackIcon;
    return (
      <NavLink
        key={to}
        component={Link}
        to={to}
        label={label}
        leftSection={<LinkIcon size={18} />}
        active={isActive(props.pathname, to)}
        onClick={props.onNavigate}
      />
    );
  });
}
