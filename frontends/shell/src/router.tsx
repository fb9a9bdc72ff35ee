import { lazy, type ComponentType } from 'react';
import { matchPath, type RouteObject } from 'react-router-dom';
import { RequireAdmin, RequireManufacturer, RequireUser } from './guards/guards';
import { AppLayout } from './layout/AppLayout';
import LandingPage from './pages/LandingPage';
import { RouteErrorPage } from './pages/RouteErrorPage';
import type { RemoteName } from './remotes/registry';

// A remote page's frame (and the Module Federation runtime behind it) comes with the first remote route.
const RemotePage = lazy(() => import('./remotes/RemotePage').then((m) => ({ default: m.RemotePage })));

/** A shell page, code-split: downloaded the first time its route is visited. */
function page(load: () => Promise<{ default: ComponentType }>) {
  const Page = lazy(load);
  return <Page />;
}

type Access = 'user' | 'manufacturer' | 'admin';

/** Pages that live in remotes (docs/product.md §2 route table); each remote's `./routes` provides the element. */
export const REMOTE_ROUTES: { path: string; remote: RemoteName; access: Access }[] = [
  { path: '/market', remote: 'market', access: 'user' },
  { path: '/market/payment/:productId', remote: 'market', access: 'user' },
  { path: '/orders', remote: 'market', access: 'user' },
  { path: '/create-product', remote: 'market', access: 'manufacturer' },
  { path: '/wallet', remote: 'wallet', access: 'user' },
  { path: '/admin/dashboard', remote: 'admin', access: 'admin' },
  { path: '/admin/users', remote: 'admin', access: 'admin' },
  { path: '/admin/transactions', remote: 'admin', access: 'admin' },
  { path: '/admin/wallets', remote: 'admin', access: 'admin' },
  { path: '/admin/products', remote: 'admin', access: 'admin' },
  { path: '/admin/orders', remote: 'admin', access: 'admin' },
  { path: '/admin/queries', remote: 'admin', access: 'admin' },
  { path: '/admin/refunds', remote: 'admin', access: 'admin' },
  { path: '/admin/user-activities', remote: 'admin', access: 'admin' },
];

/**
 * On a remote page, starts fetching the remote while the guard still asks who is signed in, instead of
 * after: the frame, the runtime, the manifest and the remote's pages are four round trips in a row. Once
 * the remote is there, the page's first queries start before it renders (RemoteRoute.prefetch).
 */
export function preloadRemoteOf({ pathname, search }: { pathname: string; search: string }): void {
  for (const { path, remote } of REMOTE_ROUTES) {
    const match = matchPath(path, pathname);
    if (!match) continue;
    const opened = { path, params: match.params, search: new URLSearchParams(search) };
    void import('./remotes/preload').then((m) => m.warmRemotes(remote, opened));
    return;
  }
}

function remoteRoutes(access: Access): RouteObject[] {
  return REMOTE_ROUTES.filter((route) => route.access === access).map(({ path, remote }) => ({
    path,
    element: <RemotePage key={path} remote={remote} path={path} />,
  }));
}

/** The shell's route table: the browser router (bootstrap.tsx) and the landing page's prerender use it. */
export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    children: [
      {
        // Errors thrown by a page render inside the layout; header and footer keep working.
        errorElement: <RouteErrorPage />,
        children: [
          // Public
          // The landing page comes with the bundle: no second round trip before the first page paints.
          { path: '/', element: <LandingPage /> },
          { path: '/auth', element: page(() => import('./pages/auth/AuthPage')) },
          { path: '/forgot-password', element: page(() => import('./pages/auth/ForgotPasswordPage')) },
          { path: '/admin', element: page(() => import('./pages/auth/AdminLoginPage')) },
          { path: '/about', element: page(() => import('./pages/info/AboutPage')) },
          { path: '/team', element: page(() => import('./pages/info/TeamPage')) },
          { path: '/readme', element: page(() => import('./pages/info/ReadmePage')) },
          { path: '/contact', element: page(() => import('./pages/ContactPage')) },
          { path: '/terms', element: page(() => import('./pages/info/TermsPage')) },
          { path: '/refund', element: page(() => import('./pages/info/RefundPage')) },
          { path: '/privacy', element: page(() => import('./pages/info/PrivacyPage')) },
          { path: '/guide', element: page(() => import('./pages/info/GuidePage')) },
          { path: '/tools-and-technology', element: page(() => import('./pages/info/ToolsPage')) },
          { path: '/roadmap', element: page(() => import('./pages/info/RoadmapPage')) },
          { path: '/faq', element: page(() => import('./pages/info/FaqPage')) },
          { path: '/careers', element: page(() => import('./pages/info/CareersPage')) },
          // Diagnostics: loads every remote's ./health module (used by the smoke test).
          { path: '/_remotes', element: page(() => import('./pages/RemotesStatusPage')) },

          // Signed-in
          {
            element: <RequireUser />,
            children: [
              { path: '/profile', element: page(() => import('./pages/profile/ProfilePage')) },
              ...remoteRoutes('user'),
            ],
          },
          // Manufacturers
          { element: <RequireManufacturer />, children: remoteRoutes('manufacturer') },
          // Administrators
          { element: <RequireAdmin />, children: remoteRoutes('admin') },

          { path: '*', element: page(() => import('./pages/NotFoundPage')) },
        ],
      },
    ],
  },
];
