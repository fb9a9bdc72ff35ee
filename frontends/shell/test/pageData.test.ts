import { CURRENT_USER_QUERY_KEY, WALLET_VIEW_KEY } from '@qm/ui';
import { transactionsQuery } from '../../wallet/src/api';
import { queryClient, seedPageData } from '../src/queryClient';

/** The data the gateway sends with a signed-in page (docs/adr/031) is in the cache before the first render. */
describe('seedPageData', () => {
  const page = (json: string | null) => ({
    getElementById: (id: string) =>
      id === 'qm-page-data' && json !== null ? ({ textContent: json } as HTMLElement) : null,
  });

  afterEach(() => queryClient.clear());

  it('puts the user and the wallet where the guard and the wallet page read them', () => {
    const user = { id: 7, username: 'army_7' };
    const wallet = { balance: '1234.50', heldBalance: '0.00' };
    // Someone is signed in: bootstrap starts the worker of the locale data before the first render.
    expect(seedPageData(page(JSON.stringify({ user, wallet })))).toBe(true);
    expect(queryClient.getQueryData(CURRENT_USER_QUERY_KEY)).toEqual(user);
    expect(queryClient.getQueryData(WALLET_VIEW_KEY)).toEqual(wallet);
  });

  it("puts the history's first page where the wallet page's first read of it looks", () => {
    const transactions = { transactions: [], total: 0, page: 1, pageSize: 20 };
    seedPageData(page(JSON.stringify({ user: { id: 7 }, transactions })));
    expect(queryClient.getQueryData(transactionsQuery({ page: 1 }).queryKey)).toEqual(transactions);
    expect(queryClient.getQueryData(transactionsQuery({ page: 2 }).queryKey)).toBeUndefined();
  });

  it('puts that nobody is signed in where the guard reads it, for a page served without a session', () => {
    // Not a signed-in page: no locale data to start early.
    expect(seedPageData(page('{"user":null}'))).toBe(false);
    expect(queryClient.getQueryState(CURRENT_USER_QUERY_KEY)).toMatchObject({
      status: 'success',
      data: null,
    });
  });

  it('leaves the cache alone without the element or with anything but JSON in it', () => {
    expect(seedPageData(page(null))).toBe(false);
    expect(seedPageData(page('{"user":'))).toBe(false);
    expect(queryClient.getQueryData(CURRENT_USER_QUERY_KEY)).toBeUndefined();
    expect(queryClient.getQueryData(WALLET_VIEW_KEY)).toBeUndefined();
  });
});
