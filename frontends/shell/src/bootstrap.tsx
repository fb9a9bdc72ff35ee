// First: before any zod schema of @qm/contracts is built (see zodConfig.ts).
import './zodConfig';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './fonts.css';
import './styles.css';
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router-dom';
import { App } from './App';
import { startAsVisitor } from './queryClient';
import { preloadRemoteOf, routes } from './router';

const container = document.getElementById('root');
if (!container) throw new Error('#root element missing from index.html');

const app = (
  <StrictMode>
    <App router={createBrowserRouter(routes)} />
  </StrictMode>
);
// As a transition the first render yields to the browser every few milliseconds instead of holding
// the main thread until the whole page is built (Lighthouse's total blocking time; input stays live).
startTransition(() => {
  // The landing page comes prerendered (prerender/index.tsx, served for a visitor's / only): React
  // adopts that markup. A remote page's prerendered frame is painted over by the first render instead.
  if (container.dataset.prerendered === 'visitor') {
    startAsVisitor();
    hydrateRoot(container, app);
  } else createRoot(container).render(app);
});
preloadRemoteOf(window.location);
