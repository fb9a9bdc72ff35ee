import { LRUCache } from 'lru-cache';
import { type AccountId, userAccount } from '../domain/ledger';
import type { Account } from '../store/accounts';
import type { WalletRef } from './ledger';

/** A user's wallet as a transfer names it: its account, and the number the users' lines show. */
export type NamedWallet = WalletRef & { _id: AccountId };

/** A user's wallet as a sale names it: whether it is open too (a remembered one is). */
export type NamedWalletState = NamedWallet & Pick<Account, 'isActive'>;

export interface WalletNumbers {
  /** Remembers the number of an open user wallet; answers the account as given. */
  remember(account: Account): Account;
  /**
   * The user's wallet: its number remembered (so open), or `read` (opening it on first use) and
   * remembered if open. A closed one is answered as it is, for the caller to refuse or not.
   */
  wallet(userId: number, read: () => Promise<Account>): Promise<NamedWalletState>;
  /**
   * The user's wallet: its number remembered, or `read` (opening it on first use), refused with
   * `closed()` when it is closed, and remembered.
   */
  named(userId: number, read: () => Promise<Account>, closed: () => Error): Promise<NamedWallet>;
  /** Forgets the user's wallet (they changed: identity's announcement, as the directory forgets them). */
  forget(userId: number): void;
}

/**
 * Open wallets' numbers by user, as this process last read them. A wallet's number never changes
 * once it is open, so a user's transfers after the first need not read the wallet for it: not the
 * payer's (docs/adr/044), whose debit itself requires the wallet open (refused as closed,
 * `failedTransfer`), nor the receiver's (docs/adr/048), who must still be a user the directory knows,
 * and a wallet closes only when its user is deleted; nor a sale's buyer's and seller's, whom the
 * orders service has just found in the directory too.
 */
export function createWalletNumbers(max = 100_000): WalletNumbers {
  const numbers = new LRUCache<number, number>({ max });
  const remember = (account: Account) => {
    if (account.isActive && account.userId !== undefined && account.walletId !== undefined)
      numbers.set(account.userId, account.walletId);
    return account;
  };
  const known = (userId: number): NamedWalletState | undefined => {
    const walletId = numbers.get(userId);
    return walletId === undefined
      ? undefined
      : { _id: userAccount(userId), userId, walletId, isActive: true };
  };
  const wallet = async (userId: number, read: () => Promise<Account>) =>
    known(userId) ?? remember(await read());
  return {
    remember,
    wallet,
    async named(userId, read, closed) {
      const found = await wallet(userId, read);
      if (!found.isActive) throw closed();
      return found;
    },
    forget(userId) {
      numbers.delete(userId);
    },
  };
}
