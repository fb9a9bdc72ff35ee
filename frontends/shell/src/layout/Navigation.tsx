import { useCurrentUser } from '@qm/ui';
import { lazy, Suspense } from 'react';
import { PublicNav, type NavProps } from './PublicNav';

// Signed-in navigation (menus, avatar) is its own chunk: a visitor's landing page never loads it.
const UserNav = lazy(() => import('./UserNav').then((m) => ({ default: m.UserNav })));
const AdminNav = lazy(() => import('./AdminNav').then((m) => ({ default: m.AdminNav })));

/** Admin navigation for admins, user navigation for signed-in users, public navigation otherwise. */
export function Navigation(props: NavProps) {
  const { user, isAdmin, isLoading } = useCurrentUser();
  if (isLoading) return null;
  if (!user) return <PublicNav {...props} />;
  return <Suspense fallback={null}>{isAdmin ? <AdminNav {...props} /> : <UserNav {...props} />}</Suspense>;
}
