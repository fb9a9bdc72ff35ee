import { LRUCache } from 'lru-cache';
import { type AccountId, userAccount } from '../domain/ledger';
import type { Account } from '../store/accounts';
import type { WalletRef } from './ledger';

/** A user's wallet as a transfer names it: its account, and the number the users' lines show. */
export type NamedWallet = WalletRef & { _id: AccountId };

export interface WalletNumbers {
  /** Remembers the number of an open user wallet; answers the account as given. */
  remember(account: Account): Account;
  /** The user's wallet, if this process remembers its number. */
  known(userId: number): NamedWallet | undefined;
}

/**
 * Open wallets' numbers by user, as this process last read them. A wallet's number never changes
 * once it is open, so a payer's transfers after the first need not read the wallet for it (docs/adr/044);
 * that it is still open is the debit's own condition, refused as closed (`failedTransfer`).
 */
export function createWalletNumbers(max = 100_000): WalletNumbers {
  const numbers = new LRUCache<number, number>({ max });
  return {
    remember(account) {
      if (account.isActive && account.userId !== undefined && account.walletId !== undefined)
        numbers.set(account.userId, account.walletId);
      return account;
    },
    known(userId) {
      const walletId = numbers.get(userId);
      return walletId === undefined ? undefined : { _id: userAccount(userId), userId, walletId };
    },
  };
}
