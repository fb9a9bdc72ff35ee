import { PageLoader, useCurrentUser } from '@qm/ui';
import { useDeferredValue, useEffect, useState, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { PageFrame } from '../layout/PageFrame';
import { PAGE_LOADING_HEIGHT } from '../layout/pageLoaderHeight';

/** Where a non-admin goes from an admin page: / (docs/product.md §2), except the transactions page, which sends to /admin. */
const ADMIN_FALLBACKS: Record<string, string> = { '/admin/transactions': '/admin' };

/**
 * The session as a guarded page follows it: one render behind. React Query delivers the answer as a
 * synchronous update, and the page it lets through (the remote's whole tree) then rendered in one task
 * that held the main thread (Lighthouse's total blocking time); deferred, React renders the page in
 * slices and keeps the frame on screen meanwhile. The header still follows the session at once.
 */
function useDeferredSession() {
  const { user, isLoading, isManufacturer } = useCurrentUser();
  return {
    user: useDeferredValue(user),
    isLoading: useDeferredValue(isLoading),
    isManufacturer: useDeferredValue(isManufacturer),
  };
}

/** Signed-in routes: unauthenticated visitors go to /auth; a loading message shows meanwhile. */
export function RequireUser({ children }: { children?: ReactNode }) {
  const { user, isLoading } = useDeferredSession();
  if (isLoading) return <PageFrame message="Checking your session..." />;
  if (!user) return <Navigate to="/auth" replace />;
  return <>{children ?? <Outlet />}</>;
}

/** /create-product: Manufacturers only; anyone else signed in goes to /wallet. */
export function RequireManufacturer({ children }: { children?: ReactNode }) {
  const { user, isLoading, isManufacturer } = useDeferredSession();
  if (isLoading) return <PageFrame message="Checking your session..." />;
  if (!user) return <Navigate to="/auth" replace />;
  if (!isManufacturer) return <Navigate to="/wallet" replace />;
  return <>{children ?? <Outlet />}</>;
}

/**
 * Admin routes: refresh the current user first (docs/product.md §2), showing "Loading admin dashboard...";
 * non-admins go to /. Mounted once for all admin pages, so moving between them does not re-check.
 */
export function RequireAdmin({ children }: { children?: ReactNode }) {
  const { isAdmin, refetch } = useCurrentUser();
  const { pathname } = useLocation();
  const [refreshed, setRefreshed] = useState(false);

  useEffect(() => {
    let active = true;
    void refetch().finally(() => {
      if (active) setRefreshed(true);
    });
    return () => {
      active = false;
    };
  }, [refetch]);

  if (!refreshed) return <PageLoader message="Loading admin dashboard..." minHeight={PAGE_LOADING_HEIGHT} />;
  if (!isAdmin) return <Navigate to={ADMIN_FALLBACKS[pathname] ?? '/'} replace />;
  return <>{children ?? <Outlet />}</>;
}
