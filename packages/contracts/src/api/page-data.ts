import type { User } from './identity';
import { isNonZeroAmount } from './money';
import type { OwnWalletView, TransactionsPage, WalletView } from './wallet';

/**
 * What the gateway puts into a page's HTML so that the browser need not ask for it before the page can
 * show it (docs/adr/031): the answers of GET /api/user (a visitor's too) and, on /wallet, of GET /api/wallet and
 * of the history's first page (GET /api/transactions?page=1&pageSize=WALLET_LIMITS.historyPageSize). The
 * shell seeds its query cache with them; a page still refreshes what it must (the wallet is loaded again
 * by the POST that records its view).
 */
export interface PageData {
  /** `null` on any page served to a request without a session: nobody is signed in. */
  user: User | null;
  wallet?: OwnWalletView;
  transactions?: TransactionsPage;
}

/** The id of the `<script type="application/json">` element that carries it. */
export const PAGE_DATA_ELEMENT_ID = 'qm-page-data';

/**
 * The balance the build prerenders into /wallet's frame with a balance (frames/with-data/wallet.html),
 * as `formatINR` shows it; the gateway writes the caller's balance, formatted the same way, in its place. The
 * prerender checks that it appears exactly once.
 */
export const FRAME_SENTINEL_BALANCE = '9876543210.12';

/** The amount held by pending transfers, when there is any. */
export function heldBalanceOf(wallet: Pick<WalletView, 'heldBalance'>): string | null {
  return isNonZeroAmount(wallet.heldBalance) ? wallet.heldBalance : null;
}
