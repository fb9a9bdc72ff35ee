import { WALLET_MESSAGES } from '@qm/contracts/rest';
import { conflict, forbidden, invalid } from '@qm/platform';
import { holdTimeout, userAccount, validAmount, validReference, validReleaseAt } from '../domain/ledger';
import type { AccountStore } from '../store/accounts';
import type { Transfer } from '../store/transfers';
import { type Ledger, type TransferRequest, walletLines } from './ledger';
import type { NamedWalletState, WalletNumbers } from './wallet-numbers';
import { failedTransfer } from './wallets';

/** The services allowed to hold, post and void funds, and to refund sales (docs/adr/005): orders only. */
const ORDERS_SERVICE = 'orders';

export function assertOrdersService(service: string | undefined): void {
  if (service !== ORDERS_SERVICE) throw forbidden('Only the orders service may hold funds');
}

/** A sale's payment: the buyer's money for the seller, keyed by the order's reference. */
export interface SaleRequest {
  reference: string;
  debitUserId: number;
  creditUserId: number;
  amountPaise: number;
  description: string;
  /** The end of the buyer's refund window (ISO 8601): the proceeds wait in escrow until then; '' for none. */
  releaseAt: string;
}

export interface HoldRequest extends SaleRequest {
  timeoutSeconds: number;
}

/**
 * A sale's payment (docs/adr/043): paid in one transfer into the sale's escrow, or cancelled for
 * good. Holds, posted or voided later (docs/adr/006, 010), are how an earlier build paid, and are
 * still resolved. Only the orders service may call them (`service` is the caller's service identity).
 */
export interface Holds {
  /**
   * Pays the buyer's money into the sale's escrow, released to the seller when the refund window
   * closes (refused: wallet closed or short). Paying again answers the same transfer; a hold placed
   * under the reference is posted.
   */
  pay(service: string | undefined, req: SaleRequest): Promise<Transfer>;
  /**
   * Makes sure the sale's payment never happens (the order was given up): answers it failed or
   * voided, or refuses with "already posted" when it was paid.
   */
  cancel(service: string | undefined, req: SaleRequest): Promise<Transfer>;
  /** Holds the buyer's funds for the seller under the order's reference (refused: wallet closed or short). */
  create(service: string | undefined, req: HoldRequest): Promise<Transfer>;
  /**
   * Pays the held amount into the sale's escrow, released to the seller when the refund window
   * closes; posting again answers the same transfer (a void is then refused).
   */
  post(service: string | undefined, reference: string): Promise<Transfer>;
  /** Gives the held amount back to the buyer; voiding again answers the same transfer. */
  void(service: string | undefined, reference: string): Promise<Transfer>;
}

export function createHolds(d: {
  accounts: AccountStore;
  ledger: Ledger;
  /** The wallet numbers this process remembers, shared with transfers (forgotten as users change). */
  numbers: WalletNumbers;
  defaultTimeoutSeconds: number;
}): Holds {
  const assertOrders = assertOrdersService;
  /**
   * A party's wallet: not read again once its number is remembered (docs/adr/048), as the orders
   * service found both in the directory just before; opened on first use otherwise.
   */
  const walletOf = (userId: number) =>
    d.numbers.wallet(userId, () => d.accounts.ensure(userAccount(userId), userId));

  /** The sale's wallets, its escrow, and its transfer as the ledger records it under `hold:<reference>`. */
  async function saleOf(req: SaleRequest) {
    const reference = validReference(req.reference);
    const amount = validAmount(req.amountPaise);
    if (req.debitUserId === req.creditUserId) throw invalid('A purchase needs two different users');
    if (req.debitUserId <= 0 || req.creditUserId <= 0) throw invalid('User ids must be positive');
    const releaseAt = validReleaseAt(req.releaseAt, new Date());
    const [buyer, seller] = await Promise.all([walletOf(req.debitUserId), walletOf(req.creditUserId)]);
    const description = req.description.trim().slice(0, 500) || `Purchase ${reference}`;
    // The proceeds wait in the sale's own escrow for the refund window (docs/adr/028); the
    // seller's line is theirs all the same.
    const escrow = await d.accounts.ensureEscrow({
      reference,
      sellerId: req.creditUserId,
      buyerId: req.debitUserId,
      releaseAt,
    });
    // A retry names the same sale; only the release time of a sale asked without one moves on.
    if (escrow.sellerId !== req.creditUserId || escrow.buyerId !== req.debitUserId)
      throw conflict('This transfer reference was already used for a different transfer');
    const key = `hold:${reference}`;
    const transfer: TransferRequest = {
      key,
      kind: 'purchase',
      debit: buyer._id,
      credit: escrow._id,
      amount,
      description,
      history: walletLines(
        { key, reference, amount, from: buyer, to: seller },
        { type: 'debit', description, counterparty: '' },
        { type: 'credit', description: `Sale: ${description}`, counterparty: '' },
      ),
    };
    return { buyer, seller, transfer };
  }

  /** Refuses a payment out of a closed wallet, or to a seller who can no longer be paid. */
  function assertMayPay({ buyer, seller }: Record<'buyer' | 'seller', NamedWalletState>): void {
    // A deleted buyer's wallet is closed: refused here, and by the debit's own condition if it
    // closes meanwhile. A closed seller's wallet would keep the money, but nothing is sold for it.
    if (!buyer.isActive) throw forbidden(WALLET_MESSAGES.accountClosed);
    if (!seller.isActive) throw invalid('The seller can no longer be paid');
  }

  return {
    async pay(service, req) {
      assertOrders(service);
      const sale = await saleOf(req);
      assertMayPay(sale);
      let t: Transfer = await d.ledger.transfer(sale.transfer);
      if (t.twoPhase) t = await d.ledger.post(sale.transfer.key);
      if (t.state === 'posted') return t;
      // Given up by the orders service before it could be paid (or abandoned by the sweeper).
      if (t.failureReason === 'abandoned') throw conflict("This sale's payment was cancelled");
      throw failedTransfer(t);
    },

    async cancel(service, req) {
      assertOrders(service);
      const t = await d.ledger.cancel((await saleOf(req)).transfer);
      if (t.state === 'posted') throw conflict("This sale's payment is already posted");
      return t;
    },

    async create(service: string | undefined, req: HoldRequest): Promise<Transfer> {
      assertOrders(service);
      const sale = await saleOf(req);
      assertMayPay(sale);
      const transfer = await d.ledger.createPending(
        sale.transfer,
        holdTimeout(req.timeoutSeconds || d.defaultTimeoutSeconds, new Date()),
      );
      if (transfer.state === 'failed') throw failedTransfer(transfer);
      return transfer;
    },

    async post(service: string | undefined, reference: string): Promise<Transfer> {
      assertOrders(service);
      return d.ledger.post(`hold:${validReference(reference)}`);
    },

    async void(service: string | undefined, reference: string): Promise<Transfer> {
      assertOrders(service);
      return d.ledger.void(`hold:${validReference(reference)}`);
    },
  };
}
