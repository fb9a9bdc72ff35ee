import { useDisclosure } from '@mantine/hooks';
import { Suspense, useState } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router-dom';
import { Assistant } from '../assistant/Assistant';
import { useUserFetchErrorToast } from '../auth/useUserFetchErrorToast';
import { useLiveUpdates } from '../live/useLiveUpdates';
import { Footer } from './Footer';
import { Header } from './Header';
import { PageFrame } from './PageFrame';
import { useToastsFollowPage } from './useToastsFollowPage';

/** The layout of every page: sticky header, the page (with a short fade-in per path), footer. */
export function AppLayout() {
  const [drawerOpened, { toggle, close }] = useDisclosure(false);
  const { pathname } = useLocation();
  // The page-transition animation plays when the path changes, not on the page the visit starts on:
  // that one shows at once (the landing page's prerendered content is the largest paint and must not
  // fade in). Nor when only the query changes (a list's search or page): the page stays, no fade.
  const [firstPathname] = useState(pathname);
  const [animate, setAnimate] = useState(false);
  if (!animate && pathname !== firstPathname) setAnimate(true);
  useUserFetchErrorToast();
  // Stock, order and money events pushed by the gateway while someone is signed in.
  useLiveUpdates();
  useToastsFollowPage();

  return (
    <>
      {/* The first thing a keyboard reaches: past the header's links to the page itself (WCAG 2.4.1). */}
      <a className="qm-skip-link" href="#content">
        Skip to content
      </a>
      {/* A sticky header over the page, as styles.css has it: Mantine's AppShell would add its
          navbar/aside machinery (and react-remove-scroll) to every page for a header alone. */}
      <header className="qm-header">
        <Header drawerOpened={drawerOpened} toggleDrawer={toggle} closeDrawer={close} />
      </header>
      <div className="qm-body">
        <main
          key={pathname}
          id="content"
          tabIndex={-1}
          className="qm-page"
          data-animate={animate || undefined}
        >
          <Suspense fallback={<PageFrame />}>
            <Outlet />
          </Suspense>
        </main>
        <Footer />
      </div>
      <Assistant />
      <ScrollRestoration />
    </>
  );
}
