import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router-dom';
import { queryClient } from './queryClient';
import { router } from './router';
import { colorSchemeManager, cssVariablesResolver, theme } from './theme';

export function App() {
  return (
    <MantineProvider
      theme={theme}
      colorSchemeManager={colorSchemeManager}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="auto"
    >
      <QueryClientProvider client={queryClient}>
        {/* One toast visible at a time; the library default of 5 s applies unless a toast sets its own.
            Top right below the header (styles.css), so that it hides neither the header's buttons nor
            the assistant's button at the bottom right. */}
        <Notifications
          limit={1}
          autoClose={5000}
          position="top-right"
          classNames={{ root: 'qm-notifications' }}
        />
        {/* ModalsProvider lives in the layout, inside the router, so modal content can use links. */}
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
