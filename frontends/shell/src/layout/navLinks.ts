export interface NavLinkItem {
  to: string;
  label: string;
}

export const PUBLIC_LINKS: NavLinkItem[] = [
  { to: '/', label: 'Home' },
  { to: '/about', label: 'About Us' },
  { to: '/contact', label: 'Contact' },
];

export const USER_LINKS: NavLinkItem[] = [
  { to: '/wallet', label: 'Wallet' },
  { to: '/market', label: 'Market' },
  { to: '/orders', label: 'Orders' },
  { to: '/profile', label: 'Profile' },
];

export const ADMIN_TOP_LINKS: NavLinkItem[] = [
  { to: '/admin/dashboard', label: 'Dashboard' },
  { to: '/admin/queries', label: 'Queries' },
];

export const ADMIN_MENU_LINKS: NavLinkItem[] = [
  { to: '/admin/products', label: 'Products' },
  { to: '/admin/orders', label: 'Orders' },
  { to: '/admin/refunds', label: 'Refunds' },
  { to: '/admin/users', label: 'Users' },
  { to: '/admin/wallets', label: 'Wallets' },
  { to: '/admin/user-activities', label: 'Activity Log' },
];

/** Active when the path is the link's path or below it ("/" only matches itself). */
export function isActive(pathname: string, to: string): boolean {
  const path = to.split('?')[0] ?? to;
  if (path === '/') return pathname === '/';
  return pathname === path || pathname.startsWith(`${path}/`);
}
