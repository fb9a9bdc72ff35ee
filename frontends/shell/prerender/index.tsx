// Prerenders the landing page into dist/landing.html after the production build (npm run build), so
// that a visitor's first paint does not wait for the JavaScript: the gateway answers GET / with it and
// the bundle hydrates that markup (src/bootstrap.tsx). Rendered as the first client render is: a visitor
// (the gateway sends it only to a request without a session), the light theme (theme-init.js sets the
// saved one before the page paints; Mantine's own toggle follows after hydration).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { AppProviders } from '../src/App';
import { startAsVisitor } from '../src/queryClient';
import { routes } from '../src/router';

const DIST = path.join(__dirname, '..', 'dist');
const ROOT = '<div id="root"></div>';

async function main(): Promise<void> {
  // What the browser bundle has from the build (rspack.shared.mjs, DefinePlugin).
  Object.assign(globalThis, { __QM_BUILD_YEAR__: new Date().getFullYear() });
  startAsVisitor();
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request('http://localhost/'));
  if (context instanceof Response) throw new Error(`prerender of /: the router answered ${context.status}`);

  const markup = renderToString(
    <AppProviders>
      {/* hydrate={false}: no inline script with router state (the CSP forbids it; there is none to pass). */}
      <StaticRouterProvider
        router={createStaticRouter(handler.dataRoutes, context)}
        context={context}
        hydrate={false}
      />
    </AppProviders>,
  );

  const template = readFileSync(path.join(DIST, 'index.html'), 'utf8');
  if (!template.includes(ROOT)) throw new Error(`dist/index.html has no ${ROOT}`);
  writeFileSync(
    path.join(DIST, 'landing.html'),
    template.replace(ROOT, `<div id="root" data-prerendered>${markup}</div>`),
  );
  console.log(`prerendered / into dist/landing.html (${(markup.length / 1024).toFixed(1)} KiB of markup)`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
