import { Button } from '@mantine/core';
import { Link } from 'react-router-dom';
import { isActive, type NavLinkItem } from './navLinks';

/** Header links as buttons; the current section is highlighted (DrawerLinks.tsx has the drawer's). */
export function TopLinkButtons({ links, pathname }: { links: NavLinkItem[]; pathname: string }) {
  return links.map(({ to, label }) => (
    <Button
      key={to}
      component={Link}
      to={to}
      variant={isActive(pathname, to) ? 'light' : 'subtle'}
      color={isActive(pathname, to) ? undefined : 'gray'}
    >
      {label}
    </Button>
  ));
}
