import { randomUUID } from 'node:crypto';
import { activityEvent, type TransferReceivedData, WALLET_SUBJECTS } from '@qm/contracts/events';
import { formatMoney, type TransactionStatusName, WALLET_MESSAGES } from '@qm/contracts/rest';
import { type Caller, conflict, forbidden, hasRole, invalid, type Outbox, outgoingEvent } from '@qm/platform';
import { type AccountId, userAccount, validAmount } from '../domain/ledger';
import { eligibility, type Eligibility } from '../domain/eligibility';
import type { Account, AccountStore } from '../store/accounts';
import type { HistoryLine, HistorySort, HistoryStore } from '../store/history';
import type { Transfer } from '../store/transfers';
import type { Directory, UserFacts } from './identity';
import { type Ledger, OtherTransferUnderKey, type TransferTerm, walletLines } from './ledger';
import type { NamedWallet, WalletNumbers } from './wallet-numbers';

/** The PIN's part in a transfer (app/pins.ts). */
export interface PinGate {
  isSetUp(userId: number): Promise<boolean>;
  /** Throws the user-facing refusal (wrong PIN, locked) or returns when the PIN is right. */
  verify(userId: number, pin: string): Promise<void>;
}

export interface WalletDeps {
  accounts: AccountStore;
  history: HistoryStore;
  ledger: Ledger;
  directory: Directory;
  pins: PinGate;
  outbox: Outbox;
  /** The wallet numbers this process remembers (forgotten as the directory forgets a user). */
  numbers: WalletNumbers;
}

/** The users' wallets and transfers, and the administrators' lists. */
export interface Wallets {
  /** The caller's wallet (opened on first use); `recordView` also publishes a wallet_view activity. */
  wallet(caller: Caller | undefined, recordView: boolean): Promise<{ account: Account; isPinSetup: boolean }>;
  /** The caller's own history lines, newest first. */
  transactions(
    caller: Caller | undefined,
    page: number,
    pageSize: number,
    status?: TransactionStatusName,
  ): Promise<{ items: HistoryLine[]; total: number }>;
  /** Whether the caller may send money to `username`, and if not why. */
  eligibility(caller: Caller | undefined, username: string): Promise<Eligibility>;
  /**
   * P2P transfer with the caller's PIN, at most once per Idempotency-Key: the transfer recorded under
   * the key is the request's record (docs/adr/044). The same request again answers as the first time;
   * another receiver or amount under the key is refused, naming what differs.
   */
  transfer(
    caller: Caller | undefined,
    req: { receiverUsername: string; amountPaise: number; pin: string; idempotencyKey: string },
  ): Promise<{ message: typeof WALLET_MESSAGES.transferred; wallet: Account; transaction: HistoryLine }>;
  /** Administrators: a page of the user wallets, and what all of them hold. */
  listWallets(
    caller: Caller | undefined,
    page: number,
    pageSize: number,
    search?: string,
  ): Promise<{ wallets: Account[]; total: number; totalBalance: number }>;
  /** Administrators: a page of every line (or one user's), with the counts and totals of all lines. */
  listAllTransactions(
    caller: Caller | undefined,
    page: number,
    pageSize: number,
    sort: HistorySort,
    status?: TransactionStatusName,
    userId?: number,
  ): Promise<{
    items: HistoryLine[];
    total: number;
    pending: number;
    completed: number;
    failed: number;
    totalBalance: number;
    completedAmount: number;
  }>;
}

const ADMIN = 'Admin';

/** The transfer request's field that fixes a term of the movement (the payer is the caller). */
const requestField = (term: TransferTerm) => (term === 'credit' ? 'receiverUsername' : term);

/** The receiver's side of a P2P transfer: the gateway pushes it to them live (toast, wallet refresh). */
export function transferReceivedEvent(data: TransferReceivedData) {
  return outgoingEvent<TransferReceivedData>(WALLET_SUBJECTS.transferReceived, data);
}

/** The caller's wallet's id; a missing caller and an administrator (who has no wallet) are refused. */
export function ownAccountId(caller: Caller | undefined): AccountId {
  if (!caller) throw forbidden(WALLET_MESSAGES.forbidden);
  if (hasRole(caller, ADMIN)) throw forbidden(WALLET_MESSAGES.adminNoWallet);
  return userAccount(caller.userId);
}

/** The caller's own wallet, created on first use; administrators have none (docs/product.md §6). */
export async function ownAccount(accounts: AccountStore, caller: Caller | undefined): Promise<Account> {
  const id = ownAccountId(caller);
  return accounts.ensure(id, caller!.userId, caller!.username);
}

/** The caller's wallet as their transfer names it: its number remembered, or read (opened on first use). */
const payerOf = (accounts: AccountStore, numbers: WalletNumbers, caller: Caller): Promise<NamedWallet> =>
  numbers.named(
    caller.userId,
    () => ownAccount(accounts, caller),
    // A deleted user's wallet is closed (events/consumers.ts): refused before the PIN is asked.
    () => forbidden(WALLET_MESSAGES.accountClosed),
  );

/**
 * The receiver's wallet, likewise. A remembered one is not read again (docs/adr/048): the receiver
 * was just found in the directory, and a wallet closes only when its user is deleted, which the
 * directory hears too.
 */
const payeeOf = (accounts: AccountStore, numbers: WalletNumbers, receiver: UserFacts): Promise<NamedWallet> =>
  numbers.named(
    receiver.id,
    () => accounts.ensure(userAccount(receiver.id), receiver.id, receiver.username),
    () => invalid(WALLET_MESSAGES.notEligible),
  );

export function createWallets(d: WalletDeps): Wallets {
  const { accounts, history, ledger, directory, numbers } = d;

  /** The caller's wallet, read without a write when it exists (it is opened the first time). */
  async function readOwn(caller: Caller | undefined): Promise<Account> {
    if (caller && !hasRole(caller, ADMIN)) {
      const found = await accounts.get(userAccount(caller.userId));
      if (found) return numbers.remember(found);
    }
    return numbers.remember(await ownAccount(accounts, caller));
  }

  async function receiverOf(caller: Caller, username: string) {
    const user = await directory.byUsername(username);
    const verdict = eligibility(caller, user);
    if (!verdict.eligible || !user) throw invalid(WALLET_MESSAGES.notEligible);
    return user;
  }

  async function send(
    caller: Caller,
    req: { receiverUsername: string; amountPaise: number; pin: string; key: string },
  ) {
    const amount = validAmount(req.amountPaise);
    // Side by side where nothing depends on the other; the PIN only once the receiver is known good,
    // so a transfer that cannot go anyway does not spend one of the PIN's attempts.
    const [receiver, from] = await Promise.all([
      receiverOf(caller, req.receiverUsername),
      payerOf(accounts, numbers, caller),
    ]);
    const [, to] = await Promise.all([
      d.pins.verify(caller.userId, req.pin),
      payeeOf(accounts, numbers, receiver),
    ]);
    const key = `p2p:${caller.userId}:${req.key}`;
    const transfer = await ledger.transfer({
      key,
      kind: 'p2p',
      debit: from._id,
      credit: to._id,
      amount,
      description: `Transfer from ${caller.username} to ${receiver.username}`,
      history: walletLines(
        { key, reference: key, amount, from, to },
        {
          type: 'transfer',
          description: `Transfer to ${receiver.username}`,
          counterparty: receiver.username,
        },
        { type: 'credit', description: `Received from ${caller.username}`, counterparty: caller.username },
      ),
      announce: [
        activityEvent(
          caller,
          'wallet_transfer',
          `Transferred ₹${formatMoney(amount)} to ${receiver.username}`,
        ),
        transferReceivedEvent({
          receiverId: receiver.id,
          senderUsername: caller.username,
          amountPaise: amount,
          reference: key,
        }),
      ],
    });
    if (transfer.state === 'failed') throw failedTransfer(transfer);
    // The payer as the debit left it, stored with the transfer, and the line as this call wrote it;
    // either is read when another driver applied that step, as a repeat of the request finds.
    const out = `${key}:out`;
    const [wallet, transaction] = await Promise.all([
      transfer.payerAfter ?? accounts.get(from._id),
      transfer.written?.lines?.find((line) => line._id === out) ?? history.byKey(out),
    ]);
    return { message: WALLET_MESSAGES.transferred, wallet: wallet!, transaction: transaction! };
  }

  return {
    async wallet(caller: Caller | undefined, recordView: boolean) {
      const account = await readOwn(caller);
      if (recordView) await d.outbox.publish([activityEvent(caller!, 'wallet_view', 'Viewed wallet')]);
      return { account, isPinSetup: await d.pins.isSetUp(caller!.userId) };
    },

    async transactions(
      caller: Caller | undefined,
      page: number,
      pageSize: number,
      status?: TransactionStatusName,
    ) {
      const account = await readOwn(caller);
      return history.ofUser(account.userId!, page, pageSize, status);
    },

    async eligibility(caller: Caller | undefined, username: string) {
      if (!caller) throw forbidden(WALLET_MESSAGES.forbidden);
      const name = username.trim();
      if (!name) throw invalid('Username is required');
      return eligibility(caller, await directory.byUsername(name));
    },

    transfer(
      caller: Caller | undefined,
      req: { receiverUsername: string; amountPaise: number; pin: string; idempotencyKey: string },
    ) {
      if (!caller) throw forbidden(WALLET_MESSAGES.forbidden);
      return send(caller, { ...req, key: req.idempotencyKey || randomUUID() }).catch((err: unknown) => {
        if (err instanceof OtherTransferUnderKey)
          throw conflict(WALLET_MESSAGES.idempotencyMismatch(err.differing.map(requestField).sort()));
        throw err;
      });
    },

    // ---- administrators ----------------------------------------------------------------------------
    async listWallets(caller: Caller | undefined, page: number, pageSize: number, search?: string) {
      assertAdmin(caller);
      const [{ items: wallets, total }, totalBalance] = await Promise.all([
        accounts.usersPage((page - 1) * pageSize, pageSize, search),
        totalUserBalance(accounts),
      ]);
      return { wallets, total, totalBalance };
    },

    async listAllTransactions(
      caller: Caller | undefined,
      page: number,
      pageSize: number,
      sort: HistorySort,
      status?: TransactionStatusName,
      userId?: number,
    ) {
      assertAdmin(caller);
      const [list, counts, totalBalance, completedAmount] = await Promise.all([
        history.all(page, pageSize, sort, status, userId),
        history.countByStatus(),
        totalUserBalance(accounts),
        history.completedAmount(),
      ]);
      return { ...list, ...counts, totalBalance, completedAmount };
    },
  };
}

/** The refusal of a transfer that took no money: the payer's wallet was closed, or short. */
export function failedTransfer(t: Pick<Transfer, 'failureReason'>) {
  return t.failureReason === 'inactive'
    ? forbidden(WALLET_MESSAGES.accountClosed)
    : conflict(WALLET_MESSAGES.insufficientBalance);
}

function assertAdmin(caller: Caller | undefined): void {
  if (!caller || !hasRole(caller, ADMIN)) throw forbidden('Administrators only');
}

/**
 * All user wallets hold exactly what the clearing accounts are short, less what sales' escrows hold
 * for their refund windows (the ledger sums to zero).
 */
async function totalUserBalance(accounts: AccountStore): Promise<number> {
  const [clearing, escrowed] = await Promise.all([accounts.clearing(), accounts.escrowed()]);
  return -clearing.reduce((sum, a) => sum + a.balance, 0) - escrowed;
}
