import { AppShell, Box } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { ModalsProvider } from '@mantine/modals';
import { PageLoader } from '@qm/ui';
import { Suspense } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router-dom';
import { Assistant } from '../assistant/Assistant';
import { useUserFetchErrorToast } from '../auth/useUserFetchErrorToast';
import { useLiveUpdates } from '../live/useLiveUpdates';
import { Footer } from './Footer';
import { Header } from './Header';
import { PAGE_LOADING_HEIGHT } from './pageLoaderHeight';

/** The layout of every page: sticky header, the page (with a short fade-in per path), footer. */
export function AppLayout() {
  const [drawerOpened, { toggle, close }] = useDisclosure(false);
  const { pathname } = useLocation();
  useUserFetchErrorToast();
  // Stock, order and money events pushed by the gateway while someone is signed in.
  useLiveUpdates();

  return (
    <ModalsProvider>
      <AppShell header={{ height: 64 }} padding={0}>
        <AppShell.Header>
          <Header drawerOpened={drawerOpened} toggleDrawer={toggle} closeDrawer={close} />
        </AppShell.Header>
        <AppShell.Main style={{ display: 'flex', flexDirection: 'column' }}>
          <Box key={pathname} className="qm-page" style={{ flex: 1 }}>
            <Suspense fallback={<PageLoader minHeight={PAGE_LOADING_HEIGHT} />}>
              <Outlet />
            </Suspense>
          </Box>
          <Footer />
        </AppShell.Main>
      </AppShell>
      <Assistant />
      <ScrollRestoration />
    </ModalsProvider>
  );
}
