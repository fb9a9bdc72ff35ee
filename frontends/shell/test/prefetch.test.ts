import { CURRENT_USER_QUERY_KEY, type RemoteRoute } from '@qm/ui';
import { QueryClient } from '@tanstack/react-query';
import { prefetchOpenedPage } from '../src/remotes/preload';

function routesWith(prefetch: jest.Mock): { default: RemoteRoute[] } {
  return {
    default: [
      { path: '/market', element: null, prefetch },
      { path: '/orders', element: null },
    ],
  };
}

const opened = (path: string, search = '') => ({
  path,
  params: {},
  search: new URLSearchParams(search),
});

describe('prefetchOpenedPage (the first queries of the remote page the application opens on)', () => {
  it("starts the page's queries with where it was opened and who opened it, for a signed-in user", () => {
    const client = new QueryClient();
    const user = { id: 7, username: 'army_demo', role: 'Army', isAdmin: false };
    client.setQueryData(CURRENT_USER_QUERY_KEY, user);
    const prefetch = jest.fn();
    prefetchOpenedPage(client, routesWith(prefetch), opened('/market', '?page=3&q=radio'));
    expect(prefetch).toHaveBeenCalledTimes(1);
    const [withClient, at, withUser] = prefetch.mock.calls[0] as [
      QueryClient,
      { search: URLSearchParams },
      unknown,
    ];
    expect(withClient).toBe(client);
    expect(at.search.get('page')).toBe('3');
    expect(at.search.get('q')).toBe('radio');
    expect(withUser).toEqual(user);
  });

  it('does nothing for a visitor or while nobody is known to be signed in', () => {
    const prefetch = jest.fn();
    const client = new QueryClient();
    prefetchOpenedPage(client, routesWith(prefetch), opened('/market')); // not asked yet
    client.setQueryData(CURRENT_USER_QUERY_KEY, null); // a visitor
    prefetchOpenedPage(client, routesWith(prefetch), opened('/market'));
    expect(prefetch).not.toHaveBeenCalled();
  });

  it('leaves pages without a prefetch alone', () => {
    const client = new QueryClient();
    client.setQueryData(CURRENT_USER_QUERY_KEY, { id: 7, username: 'army_demo', role: 'Army' });
    const prefetch = jest.fn();
    expect(() => prefetchOpenedPage(client, routesWith(prefetch), opened('/orders'))).not.toThrow();
    expect(() => prefetchOpenedPage(client, routesWith(prefetch), opened('/unknown'))).not.toThrow();
    expect(prefetch).not.toHaveBeenCalled();
  });
});
