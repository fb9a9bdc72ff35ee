import type { CurrentUser, RemoteRoute } from '@qm/ui';
import { QueryClient } from '@tanstack/react-query';
import routes from '../src/routes';

const user = (role: CurrentUser['role'], isAdmin: boolean): CurrentUser => ({
  id: 7,
  username: 'someone',
  firstName: 'Some',
  isAdmin,
  role,
  status: 'approved',
});

/** Runs /wallet's prefetch as the shell does and lists the queries it started. */
function prefetchedBy(who: CurrentUser): unknown[] {
  const client = new QueryClient();
  const prefetchQuery = jest.spyOn(client, 'prefetchQuery').mockResolvedValue(undefined);
  const wallet = routes.find((route: RemoteRoute) => route.path === '/wallet');
  wallet?.prefetch?.(client, { params: {}, search: new URLSearchParams() }, who);
  return prefetchQuery.mock.calls.map(([options]) => options.queryKey);
}

describe('/wallet opened directly (the prefetch of its first queries)', () => {
  it("starts the history's first page for a wallet holder", () => {
    expect(prefetchedBy(user('Army', false))).toEqual([
      ['/api/transactions', { page: 1, status: undefined }],
    ]);
  });

  it('starts nothing for an administrator, who holds no wallet and whose history call answers 403', () => {
    expect(prefetchedBy(user('Admin', true))).toEqual([]);
  });
});
