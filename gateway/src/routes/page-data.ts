import type { Request, Response } from 'express';
import cookieParser from 'cookie-parser';
import { type PageData, WALLET_LIMITS } from '@qm/contracts/rest';
import type { GatewayDeps } from '../deps';
import { userToRest } from './identity/rest';
import { ownTransactions } from './wallet/account';
import { ownWalletToRest } from './wallet/rest';

/** What a signed-in page's HTML carries (docs/adr/031), or nothing: the page then asks as before. */
export type PageDataSource = (req: Request, res: Response) => Promise<PageData | undefined>;

/**
 * A page's data may hold its HTML back only briefly: past this the browser is better served by the
 * frame at once and its own requests.
 */
const PAGE_DATA_DEADLINE_MS = 1_000;

const parseCookies = cookieParser();

/** The history page the /wallet page asks for first: every status, newest first. */
const FIRST_HISTORY_PAGE = { page: 1, pageSize: WALLET_LIMITS.historyPageSize };

/**
 * The signed-in user (GET /api/user's answer) for every page with a frame, and on /wallet the caller's
 * wallet as GET /api/wallet answers it (a read: the page's POST still records the view) with the first
 * page of their history. Read with the session's caller, as the API reads them; an administrator has
 * no wallet.
 */
export function pageDataSource({
  clients,
  sessions,
  log,
}: Pick<GatewayDeps, 'clients' | 'sessions' | 'log'>): PageDataSource {
  return async (req, res) => {
    try {
      await new Promise<void>((resolve, reject) =>
        parseCookies(req, res, (err?: unknown) => (err ? reject(err) : resolve())),
      );
      const caller = await sessions.resolve(req, res);
      if (!caller) return undefined;
      res.locals.ctx.caller = caller;
      const opts = { deadlineMs: PAGE_DATA_DEADLINE_MS };
      const wantsWallet = req.path === '/wallet' && !caller.roles.includes('Admin');
      const [{ user }, wallet, transactions] = await Promise.all([
        clients.identity.getCurrentUser({}, opts),
        wantsWallet ? clients.wallet.getWallet({ recordView: false }, opts) : undefined,
        wantsWallet ? ownTransactions(clients, FIRST_HISTORY_PAGE, opts) : undefined,
      ]);
      if (!user) return undefined;
      return {
        user: userToRest(user),
        ...(wallet ? { wallet: ownWalletToRest(wallet) } : {}),
        ...(transactions ? { transactions } : {}),
      };
    } catch (err) {
      // The page still works without it: the browser asks for the same data itself.
      log.warn({ err, path: req.path }, 'a page was sent without its data');
      return undefined;
    }
  };
}
