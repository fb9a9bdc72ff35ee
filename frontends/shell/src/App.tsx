import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { RouterProvider, type createBrowserRouter } from 'react-router-dom';
import { Toasts } from './layout/Toasts';
import { queryClient } from './queryClient';
import { colorSchemeManager, cssVariablesResolver, theme } from './theme';

/**
 * Theme, server state and toasts around the router: the same in the browser and in the prerender.
 * `themeVariablesInPage`: the page already holds the theme's CSS variables (themeVariables.ts).
 */
export function AppProviders({
  children,
  themeVariablesInPage = false,
}: {
  children: ReactNode;
  themeVariablesInPage?: boolean;
}) {
  return (
    <MantineProvider
      theme={theme}
      colorSchemeManager={colorSchemeManager}
      cssVariablesResolver={cssVariablesResolver}
      withCssVariables={!themeVariablesInPage}
      defaultColorScheme="auto"
    >
      <QueryClientProvider client={queryClient}>
        <Toasts />
        {children}
      </QueryClientProvider>
    </MantineProvider>
  );
}

export function App({
  router,
  themeVariablesInPage,
}: {
  router: ReturnType<typeof createBrowserRouter>;
  themeVariablesInPage?: boolean;
}) {
  return (
    <AppProviders themeVariablesInPage={themeVariablesInPage}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
