import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router-dom';
import { queryClient } from './queryClient';
import { router } from './router';
import { colorSchemeManager, theme } from './theme';

export function App() {
  return (
    <MantineProvider theme={theme} colorSchemeManager={colorSchemeManager} defaultColorScheme="auto">
      <QueryClientProvider client={queryClient}>
        {/* One toast visible at a time; the library default of 5 s applies unless a toast sets its own. */}
        <Notifications limit={1} autoClose={5000} position="top-right" />
        {/* ModalsProvider lives in the layout, inside the router, so modal content can use links. */}
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
