import { randomUUID } from 'node:crypto';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { AppError, conflict, type Logger, type OutgoingEvent, type Outbox, unavailable } from '@qm/platform';
import {
  type AccountId,
  FINAL_STATES,
  isClearingAccount,
  isUserAccount,
  validAmount,
} from '../domain/ledger';
import type { Account, AccountStore } from '../store/accounts';
import type { EntryStore } from '../store/entries';
import type { HistoryLine, HistoryStore, NewHistoryLine } from '../store/history';
import type { SeenTransfer, Transfer, TransferStore } from '../store/transfers';
import type { TransferKind, TransferState } from '../domain/ledger';

/**
 * The transfer engine: every movement of money, single-phase or two-phase, through the steps of
 * domain/ledger.ts. Each step is idempotent, so the request that started a transfer, a retry of it
 * and the sweeper may all drive the same transfer and it still moves money once.
 */
export interface LedgerDeps {
  accounts: AccountStore;
  transfers: TransferStore;
  entries: EntryStore;
  history: HistoryStore;
  log: Logger;
  /** Where a posted transfer's announcements go (at once, or through the outbox's relay). */
  outbox?: Pick<Outbox, 'publish'>;
  /** Test-only fault injection (WALLET_FAULT): stop the process at a named point. */
  fault?: (point: 'after-debit') => void;
}

export interface TransferRequest {
  key: string;
  kind: TransferKind;
  debit: AccountId;
  credit: AccountId;
  amount: number;
  description: string;
  /** Lines of the users' histories, written pending now and closed with the transfer. */
  history: NewHistoryLine[];
  /** Events published once the money has moved, by whoever finishes the transfer (store/transfers.ts). */
  announce?: OutgoingEvent[];
}

/**
 * A transfer as one call of the ledger left it, with the users' lines as that call wrote them (absent
 * when another driver, a retry or the sweeper, wrote them). Never stored.
 */
export type Driven = Transfer & { written?: { lines?: HistoryLine[] } };

export interface Ledger {
  /** Moves money now: posted, or failed with nothing moved (insufficient balance). */
  transfer(req: TransferRequest): Promise<Driven>;
  /** Holds the amount on the debit account until posted, voided or expired. */
  createPending(req: TransferRequest, timeoutAt: Date): Promise<Transfer>;
  /** Posts the pending transfer under `key` once: posting again answers it, a void is then refused. */
  post(key: string): Promise<Transfer>;
  /** Voids the pending transfer under `key` once: voiding again answers it, a post is then refused. */
  void(key: string): Promise<Transfer>;
  /**
   * Makes sure the transfer never takes its money (a sale given up, docs/adr/043). Not recorded yet,
   * it is recorded and failed, so a late request for it finds it failed; under way, its debit is
   * barred unless it landed, and then it goes on to be posted; a hold is voided. Answers how it ended.
   */
  cancel(req: TransferRequest): Promise<Transfer>;
  /** The sweeper's expiry of one hold past its timeout (a concurrent post or void wins instead). */
  expire(t: SeenTransfer): Promise<Transfer>;
  /**
   * The sweeper's resumption: an `initiated` transfer never debited from a user's wallet is
   * abandoned, its debit barred first (its client saw an error, so it must not move later); anything
   * else goes on — a provider's credit too, as that money was paid and its key (the payment id) is
   * used up.
   */
  resume(t: SeenTransfer): Promise<Transfer>;
  byKey(key: string): Promise<SeenTransfer | null>;
}

type LineSide = Pick<NewHistoryLine, 'type' | 'description' | 'counterparty'>;
/** What a user's line names of their wallet. */
export type WalletRef = Pick<Account, 'userId' | 'walletId'>;

/**
 * The two users' lines of a movement between wallets: `<key>:out` for the payer's side and
 * `<key>:in` for the payee's, each with the movement's reference and both wallet ids.
 */
export function walletLines(
  m: { key: string; reference: string; amount: number; from: WalletRef; to: WalletRef },
  out: LineSide,
  into: LineSide,
): NewHistoryLine[] {
  const common = {
    amount: m.amount,
    transferReference: m.reference,
    providerOrderId: '',
    providerPaymentId: '',
    senderWalletId: m.from.walletId ?? null,
    receiverWalletId: m.to.walletId ?? null,
    transferId: '',
  };
  return [
    { ...common, ...out, _id: `${m.key}:out`, userId: m.from.userId! },
    { ...common, ...into, _id: `${m.key}:in`, userId: m.to.userId! },
  ];
}

/** Records the transfer under its key, or answers the one recorded there if it is the same movement. */
async function record(
  { transfers, accounts, outbox }: Pick<LedgerDeps, 'transfers' | 'accounts' | 'outbox'>,
  req: TransferRequest,
  twoPhase: boolean,
  timeoutAt: Date | null,
) {
  validAmount(req.amount);
  if (req.announce?.length && !outbox)
    throw new Error('announcing a transfer needs the ledger to have an outbox');
  // Users' wallets and escrows are opened by the use cases (with what they name); a clearing account
  // on first use.
  for (const account of [req.debit, req.credit])
    if (isClearingAccount(account)) await accounts.ensureClearing(account);
  const id = randomUUID();
  const now = new Date();
  const { created, transfer } = await transfers.insert(
    {
      _id: id,
      key: req.key,
      kind: req.kind,
      debitAccount: req.debit,
      creditAccount: req.credit,
      amount: req.amount,
      twoPhase,
      timeoutAt,
      history: req.history.map((line) => ({ ...line, transferId: id })),
      announcements: req.announce ?? [],
      description: req.description,
    },
    now,
  );
  if (!created) {
    const differing = termsDiffering(transfer, req);
    if (differing.length > 0) throw new OtherTransferUnderKey(differing);
  }
  return { transfer, created };
}

/** The terms of a movement a key fixes: a request under a recorded key must name the same ones. */
export type TransferTerm = 'amount' | 'debit' | 'credit';

const termsDiffering = (t: Transfer, req: TransferRequest): TransferTerm[] =>
  (
    [
      ['amount', t.amount === req.amount],
      ['debit', t.debitAccount === req.debit],
      ['credit', t.creditAccount === req.credit],
    ] as const
  )
    .filter(([, same]) => !same)
    .map(([term]) => term);

/** A key already recorded for another movement, with the terms that differ (a use case may name them). */
export class OtherTransferUnderKey extends AppError {
  constructor(readonly differing: TransferTerm[]) {
    super(
      GrpcStatus.FAILED_PRECONDITION,
      'This transfer reference was already used for a different transfer',
    );
  }
}

/**
 * The payer as the debit left it, to keep on the transfer (docs/adr/044): a user's wallet only, whose
 * debit is applied alone, so that it is this debit's (a clearing account's are grouped), and which a
 * P2P repeat reads back.
 */
const keptPayer = (t: Transfer, after?: Account) => (isUserAccount(t.debitAccount) ? after : undefined);

/** A driver's copy of a transfer; `again` once it was read again after a fenced step (readAgain). */
type Copy = SeenTransfer & { again?: true };

const historyIdsOf = (t: Transfer) => t.history.map((l) => l._id);
const linesOf = (t: Transfer) => t.history.map((line) => ({ ...line, transferId: t._id }));

/**
 * Whether the users see the transfer's lines pending while it runs: a hold's, which can stay
 * pending for long, and a top-up's (opened when its payment began). Any other movement ends within
 * its request, so its lines are written once when it ends (docs/adr/027).
 */
const showsPending = (t: Transfer) => t.twoPhase || t.kind === 'topup';

/** A pending-showing transfer's lines exist before money moves; writing them again changes nothing. */
async function openHistory(history: HistoryStore, t: Transfer, isNew = false): Promise<void> {
  if (!showsPending(t)) return;
  if (isNew) await history.openNew(linesOf(t), t.createdAt);
  else await Promise.all(linesOf(t).map((line) => history.open(line, t.createdAt)));
}

/**
 * The users' lines of a transfer that ended: their pending lines closed, or written now, ended (and
 * then answered as written).
 */
async function endHistory(
  history: HistoryStore,
  t: Transfer,
  status: 'completed' | 'failed',
): Promise<HistoryLine[] | undefined> {
  if (!showsPending(t)) return history.finish(linesOf(t), status, t.createdAt);
  await history.close(historyIdsOf(t), status);
  return undefined;
}

/**
 * Publishes what a transfer announces. Called before it is `posted`, so a process that dies in
 * between leaves it to the sweeper, which publishes again: the same event ids, one event downstream.
 */
async function announce({ outbox, log }: Pick<LedgerDeps, 'outbox' | 'log'>, t: Transfer): Promise<void> {
  if (!t.announcements?.length) return;
  if (outbox) await outbox.publish(t.announcements);
  else log.error({ transfer: t._id }, 'a ledger without an outbox cannot announce this transfer');
}

/**
 * After a step was fenced off (`stale`): its copy is older than a clearing of the account's markers,
 * so the step may have been applied and its marker cleared since. The transfer is read again, to be
 * driven from there, once: a copy read now passes every fence unless clocks are further apart than
 * allowed.
 */
async function readAgain(transfers: TransferStore, t: Copy): Promise<Copy> {
  if (t.again) throw unavailable('The wallet could not complete this transfer now. Please try again.');
  const now = await transfers.byId(t._id);
  if (!now) throw new Error(`transfer ${t._id} is gone`);
  return { ...now, again: true };
}

/** Why a debit or hold was refused: the wallet was closed (its user deleted), or it did not hold enough. */
async function refusal(accounts: AccountStore, t: Transfer): Promise<Transfer['failureReason']> {
  const account = await accounts.get(t.debitAccount);
  return account && !account.isActive ? 'inactive' : 'insufficient';
}

/**
 * Compensates what a failed or released transfer left and closes the history; its markers stay until
 * the sweeper clears them after settling (clearSettledMarkers): a driver still holding an older copy
 * of the transfer finds its step applied, or else is fenced.
 */
async function settle(
  { accounts, transfers, history }: Pick<LedgerDeps, 'accounts' | 'transfers' | 'history'>,
  t: SeenTransfer,
): Promise<Transfer> {
  if (t.state === 'posted') {
    await endHistory(history, t, 'completed');
  } else {
    // A debit of an earlier build can have raced a failure in (it is refunded); a hold is released.
    await accounts.refundDebit(t.debitAccount, t._id, t.amount);
    await accounts.releaseHold(t.debitAccount, t._id, t.amount);
    await endHistory(history, t, 'failed');
  }
  await transfers.markSettled(t._id);
  return { ...t, settled: true };
}

export function createLedger(d: LedgerDeps): Ledger {
  const { accounts, transfers, entries, history } = d;

  async function start({ transfer, created }: { transfer: SeenTransfer; created: boolean }) {
    // A transfer recorded just now has no lines yet, except a top-up's, opened when its payment began.
    await openHistory(history, transfer, created && transfer.kind !== 'topup');
    return advance(transfer);
  }

  /** Ends a transfer that could not take its money. */
  async function fail(t: SeenTransfer, reason: Transfer['failureReason']): Promise<Transfer> {
    const { transfer } = await transfers.move(t._id, ['initiated'], 'failed', { failureReason: reason });
    return advance(transfer);
  }

  /**
   * Fails a transfer whose debit (or hold) did not land, barring it first. Another driver of the
   * transfer (a retry after funds arrived, the request the sweeper thought dead) may have taken it
   * since: then the bar is refused and the transfer goes on instead. So a transfer that took its money
   * is never failed, and nothing needs recording between its debit and its credit (docs/adr/006).
   */
  async function failUnlessDebited(
    t: SeenTransfer,
    reason: () => Promise<Transfer['failureReason']>,
  ): Promise<Driven> {
    const barred = await accounts.voidDebit(t.debitAccount, t._id, t.seenAt);
    if (barred === 'stale') return advance(await readAgain(transfers, t));
    if (barred === 'refused') return advance(t);
    return fail(t, await reason());
  }

  /**
   * Credit, entries, posted: what can no longer fail, once the debit landed (a hold posted, or a debit from
   * `initiated` or an earlier build's `debited`). The users' lines are completed first, so posting settles
   * the transfer in the same update; it stores the payer's wallet as this driver's debit left it.
   */
  async function complete(t: SeenTransfer, payerAfter?: Account): Promise<Driven> {
    const at = new Date();
    // Independent steps, each applied once whoever repeats them: one round trip instead of three.
    const [credit, , lines] = await Promise.all([
      accounts.credit(t.creditAccount, t._id, t.amount, at, t.seenAt),
      entries.writePair(t, at),
      endHistory(history, t, 'completed'),
    ]);
    if (credit === 'stale') return advance(await readAgain(transfers, t));
    // After the credit (a receipt makes the receiver's page read the balance), before `posted`.
    await announce(d, t);
    const from: TransferState[] = t.twoPhase ? ['posting'] : ['initiated', 'debited'];
    const { transfer } = await transfers.move(t._id, from, 'posted', { settles: true, payerAfter });
    return { ...(await advance(transfer)), written: { lines } };
  }

  /** Drives a transfer from whatever state it is in as far as it can go now. */
  async function advance(t: Copy): Promise<Driven> {
    switch (t.state) {
      case 'initiated':
        return t.twoPhase ? placeHold(t) : takeDebit(t);
      case 'debited':
      case 'posting':
        return t.state === 'posting' ? postHold(t) : complete(t);
      case 'voiding':
      case 'expiring': {
        await accounts.releaseHold(t.debitAccount, t._id, t.amount);
        const to = t.state === 'voiding' ? 'voided' : 'expired';
        const { transfer } = await transfers.move(t._id, [t.state], to);
        return advance(transfer);
      }
      case 'pending':
        return t;
      default:
        return FINAL_STATES.has(t.state) && !t.settled ? settle(d, t) : t;
    }
  }

  async function takeDebit(t: SeenTransfer): Promise<Driven> {
    // A release waits while a refund request holds its escrow (docs/adr/028).
    const { outcome, after } = await accounts.debit(t.debitAccount, t._id, t.amount, t.seenAt, {
      unlessFrozen: t.kind === 'release',
    });
    if (outcome === 'stale') return advance(await readAgain(transfers, t));
    if (outcome === 'refused') return failUnlessDebited(t, () => refusal(accounts, t));
    d.fault?.('after-debit');
    return complete(t, keptPayer(t, after));
  }

  async function placeHold(t: SeenTransfer): Promise<Transfer> {
    const outcome = await accounts.hold(t.debitAccount, t._id, t.amount, t.seenAt);
    if (outcome === 'stale') return advance(await readAgain(transfers, t));
    if (outcome === 'refused') return fail(t, await refusal(accounts, t));
    const { transfer } = await transfers.move(t._id, ['initiated'], 'pending');
    return advance(transfer);
  }

  async function postHold(t: SeenTransfer): Promise<Transfer> {
    await accounts.postHold(t.debitAccount, t._id, t.amount, new Date());
    return complete(t);
  }

  /** Resolves a pending transfer once; the same resolution again answers it, another is refused. */
  async function resolve(
    key: string,
    to: 'posting' | 'voiding',
    done: 'posted' | 'voided',
  ): Promise<Transfer> {
    // Only a two-phase transfer is ever `pending`: the usual case is one update, found by its key.
    const moved = await transfers.moveByKey(key, ['pending'], to);
    if (moved) return advance(moved);
    const found = await transfers.byKey(key);
    if (!found) throw conflict('No pending transfer with this reference');
    if (!found.twoPhase) throw conflict('This transfer is not a pending transfer');
    if (found.state === to || found.state === done) return advance(found);
    throw conflict(`This pending transfer is already ${found.state}`);
  }

  return {
    async transfer(req: TransferRequest): Promise<Driven> {
      return start(await record(d, req, false, null));
    },

    async createPending(req: TransferRequest, timeoutAt: Date): Promise<Transfer> {
      return start(await record(d, req, true, timeoutAt));
    },

    post: (key: string) => resolve(key, 'posting', 'posted'),
    void: (key: string) => resolve(key, 'voiding', 'voided'),

    async cancel(req: TransferRequest): Promise<Transfer> {
      // Recorded with its lines, as a request would: one driving it on before the bar pays it whole.
      const { transfer: t } = await record(d, req, false, null);
      if (t.twoPhase) return resolve(req.key, 'voiding', 'voided');
      if (t.state === 'initiated') return failUnlessDebited(t, () => Promise.resolve('abandoned'));
      return advance(t);
    },

    async expire(t: SeenTransfer): Promise<Transfer> {
      const { transfer } = await transfers.move(t._id, ['pending'], 'expiring');
      return advance(transfer);
    },

    async resume(t: SeenTransfer): Promise<Transfer> {
      await openHistory(history, t);
      // Barring the debit first makes abandoning safe: a request's late debit or hold cannot follow.
      if (t.state === 'initiated' && isUserAccount(t.debitAccount))
        return failUnlessDebited(t, () => Promise.resolve('abandoned'));
      return advance(t);
    },

    byKey: (key: string) => transfers.byKey(key),
  };
}
