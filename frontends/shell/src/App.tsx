import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router-dom';
import { Toasts } from './layout/Toasts';
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
        <Toasts />
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
