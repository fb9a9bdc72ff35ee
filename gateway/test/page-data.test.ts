import type { Request, Response } from 'express';
import type { Caller, Logger } from '@qm/platform';
import type { GatewayDeps } from '../src/deps';
import { pageDataSource } from '../src/routes/page-data';

/** What a signed-in page's HTML carries (docs/adr/031): read as the session's caller, or nothing. */
describe('page data', () => {
  const army: Caller = { userId: 7, username: 'army_7', roles: ['Army'] };
  const admin: Caller = { userId: 1, username: 'admin', roles: ['Admin'] };
  const protoUser = {
    id: 7,
    username: 'army_7',
    email: 'a@b.c',
    firstName: 'A',
    lastName: 'B',
    isAdmin: false,
  };
  const protoWallet = {
    wallet: { balancePaise: 123450, heldPaise: 0, availablePaise: 123450, isActive: true, isPinSetup: false },
    proceedsOnHoldPaise: 0,
    heldProceeds: [],
  };

  function source(caller: Caller | undefined, fail?: 'identity' | 'wallet') {
    const seen: { callers: (Caller | undefined)[]; walletCalls: unknown[] } = {
      callers: [],
      walletCalls: [],
    };
    const res = { locals: { ctx: { requestId: 'r' } } } as unknown as Response;
    const deps = {
      sessions: { resolve: async () => caller },
      clients: {
        identity: {
          getCurrentUser: async () => {
            seen.callers.push(res.locals.ctx.caller);
            if (fail === 'identity') throw Object.assign(new Error('down'), { code: 14 });
            return { user: protoUser };
          },
        },
        wallet: {
          getWallet: async (req: unknown) => {
            seen.walletCalls.push(req);
            if (fail === 'wallet') throw Object.assign(new Error('down'), { code: 14 });
            return protoWallet;
          },
          listTransactions: async (req: unknown) => {
            seen.walletCalls.push(req);
            return { transactions: [], total: 0 };
          },
        },
      },
      log: { warn: () => undefined } as unknown as Logger,
    } as unknown as Pick<GatewayDeps, 'clients' | 'sessions' | 'log'>;
    const load = (path: string) =>
      pageDataSource(deps)({ path, headers: { cookie: 'qm_session=abc' } } as Request, res);
    return { load, seen };
  }

  it("answers the user on every page and the wallet and its history on /wallet, read as the session's caller without recording a view", async () => {
    const { load, seen } = source(army);
    const market = await load('/market');
    expect(market?.user).toMatchObject({ id: 7, username: 'army_7', role: 'Army' });
    expect(market?.wallet).toBeUndefined();
    const wallet = await load('/wallet');
    expect(wallet?.wallet).toMatchObject({ balance: '1234.50', heldBalance: '0.00' });
    // The history's first page, as the page asks for it: every status, newest first.
    expect(wallet?.transactions).toEqual({ transactions: [], total: 0, page: 1, pageSize: 20 });
    expect(seen.walletCalls).toEqual([{ recordView: false }, { page: 1, pageSize: 20, status: 0 }]);
    expect(seen.callers).toEqual([army, army]);
  });

  it('asks no wallet for an administrator, who has none', async () => {
    const { load, seen } = source(admin);
    expect((await load('/wallet'))?.wallet).toBeUndefined();
    expect(seen.walletCalls).toEqual([]);
  });

  it('answers nothing without a session, or when a service does not answer', async () => {
    expect(await source(undefined).load('/wallet')).toBeUndefined();
    expect(await source(army, 'identity').load('/market')).toBeUndefined();
    expect(await source(army, 'wallet').load('/wallet')).toBeUndefined();
  });
});
