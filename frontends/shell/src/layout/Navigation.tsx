import { useCurrentUser } from '@qm/ui';
import { lazy, Suspense, useEffect } from 'react';
import { PublicNav, type NavProps } from './PublicNav';

// Signed-in navigation (menus, avatar) is its own chunk: a visitor's landing page never loads it. Named
// for the build, which shares its Mantine components with the remotes' (SIGNED_IN_CHUNKS, rspack.shared.mjs).
const UserNav = lazy(() =>
  import(/* webpackChunkName: "user-nav" */ './UserNav').then((m) => ({ default: m.UserNav })),
);
const AdminNav = lazy(() =>
  import(/* webpackChunkName: "admin-nav" */ './AdminNav').then((m) => ({ default: m.AdminNav })),
);
// The drawer's links for visitors (NavLink, icons) come with the drawer, not with every page.
const PublicDrawerNav = lazy(() => import('./PublicDrawerNav').then((m) => ({ default: m.PublicDrawerNav })));

/** Admin navigation for admins, user navigation for signed-in users, public navigation otherwise. */
export function Navigation(props: NavProps) {
  const { user, isAdmin, isLoading } = useCurrentUser();
  const signedIn = Boolean(user);
  // Someone signed in will open a remote page soon: its frame and the runtime are fetched now.
  useEffect(() => {
    if (signedIn) void import('../remotes/preload').then((m) => m.warmRemotes());
  }, [signedIn]);
  if (isLoading) return null;
  if (!user && props.variant === 'header') return <PublicNav />;
  return (
    <Suspense fallback={null}>
      {!user ? (
        <PublicDrawerNav onNavigate={props.onNavigate} />
      ) : isAdmin ? (
        <AdminNav {...props} />
      ) : (
        <UserNav {...props} />
      )}
    </Suspense>
  );
}
