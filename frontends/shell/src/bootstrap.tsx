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
import { seedPageData, startAsVisitor } from './queryClient';
import { warmFormats } from './remotes/warmFormats';
import { preloadRemoteOf, routes } from './router';
import { themeVariablesBeside } from './themeVariables';

const container = document.getElementById('root');
if (!container) throw new Error('#root element missing from index.html');

// The landing page comes prerendered (prerender/index.tsx, served for a visitor's / only): React
// adopts that markup. A remote page's prerendered frame is painted over by the first render instead.
const prerendered = container.dataset.prerendered === 'visitor';
// Hydration data (there is none to carry: no route has a loader) tells React Router the page is
// already drawn, so its first render keeps the scroll where it is: a visitor who scrolled the
// prerendered page while it loaded was sent back to the top, and a click under way missed its link.
const router = createBrowserRouter(routes, prerendered ? { hydrationData: {} } : undefined);
// A signed-in page's frame may show a price in its first render (/wallet's balance): the worker that
// loads the locale data starts before it (remotes/warmFormats.ts).
if (!prerendered && seedPageData()) warmFormats();
// A remote page's frame comes with the theme's CSS variables beside #root: kept, not worked out again.
const themeVariablesInPage = !prerendered && themeVariablesBeside(container);
const app = (
  <StrictMode>
    <App router={router} themeVariablesInPage={themeVariablesInPage} />
  </StrictMode>
);
// As a transition the first render yields to the browser every few milliseconds instead of holding
// the main thread until the whole page is built (Lighthouse's total blocking time; input stays live).
startTransition(() => {
  if (prerendered) {
    startAsVisitor();
    hydrateRoot(container, app);
  } else createRoot(container).render(app);
});
preloadRemoteOf(window.location);
