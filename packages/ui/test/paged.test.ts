import { apiFetchPage, toQueryString } from '../src/paged';
import { userDisplayName } from '../src/userLookup';

describe('toQueryString', () => {
  it('keeps defined, non-empty values only', () => {
    expect(toQueryString({ page: 2, pageSize: 24, type: undefined, q: '' })).toBe('?page=2&pageSize=24');
    expect(toQueryString({})).toBe('');
    expect(toQueryString({ q: 'night vision' })).toBe('?q=night+vision');
  });
});

describe('apiFetchPage', () => {
  const realFetch = globalThis.fetch;
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    globalThis.fetch = jest.fn(
      async () =>
        new Response(JSON.stringify(body), {
          status,
          headers: { 'Content-Type': 'application/json', ...headers },
        }),
    ) as typeof fetch;
  };

  it('reads the items and the X-Total-Count header', async () => {
    answer(200, [{ id: 1 }, { id: 2 }], { 'X-Total-Count': '10000' });
    await expect(apiFetchPage('/api/products?page=1&pageSize=2')).resolves.toEqual({
      items: [{ id: 1 }, { id: 2 }],
      total: 10000,
    });
    expect(globalThis.fetch).toHaveBeenCalledWith(
      '/api/products?page=1&pageSize=2',
      expect.objectContaining({ credentials: 'include' }),
    );
  });

  it('falls back to the page length without the header', async () => {
    answer(200, [{ id: 1 }]);
    await expect(apiFetchPage('/api/products')).resolves.toEqual({ items: [{ id: 1 }], total: 1 });
  });

  it('throws ApiError with the server message on failure', async () => {
    answer(400, { message: 'Page must be at least 1' });
    await expect(apiFetchPage('/api/products?page=0')).rejects.toMatchObject({
      status: 400,
      serverMessage: 'Page must be at least 1',
    });
  });
});

describe('userDisplayName', () => {
  it('prefers the full name, then the username, then the id', () => {
    expect(userDisplayName({ id: 3, firstName: 'Meera', lastName: 'Iyer' })).toBe('Meera Iyer');
    expect(userDisplayName({ id: 3, firstName: ' ', lastName: '', username: 'maker' })).toBe('maker');
    expect(userDisplayName({ id: 3, firstName: '', lastName: '' })).toBe('User #3');
  });
});
