import { MantineProvider } from '@mantine/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { RefreshingLoader } from '../src/components/RefreshingLoader';

describe('RefreshingLoader', () => {
  it('is a named status (axe refuses a name on a spinner with no role: aria-prohibited-attr)', () => {
    const html = renderToStaticMarkup(
      <MantineProvider>
        <RefreshingLoader />
      </MantineProvider>,
    );
    expect(html).toMatch(
      /<span[^>]*role="status"[^>]*aria-label="Refreshing"|aria-label="Refreshing"[^>]*role="status"/,
    );
  });
});
