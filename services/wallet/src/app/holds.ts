import { WALLET_MESSAGES } from '@qm/contracts/rest';
import { conflict, forbidden, invalid } from '@qm/platform';
import { holdTimeout, userAccount, validAmount, validReference, validReleaseAt } from '../domain/ledger';
import type { AccountStore } from '../store/accounts';
import type { Transfer } from '../store/transfers';
import { type Ledger, walletLines } from './ledger';
import { failedTransfer } from './wallets';

/** The services allowed to hold, post and void funds, and to refund sales (docs/adr/005): orders only. */
const ORDERS_SERVICE = 'orders';

export function assertOrdersService(service: string | undefined): void {
  if (service !== ORDERS_SERVICE) throw forbidden('Only the orders service may hold funds');
}

export interface HoldRequest {
  reference: string;
  debitUserId: number;
  creditUserId: number;
  amountPaise: number;
  timeoutSeconds: number;
  description: string;
  /** The end of the buyer's refund window (ISO 8601): the proceeds wait in escrow until then; '' for none. */
  releaseAt: string;
}

/**
 * Two-phase transfers for purchases (docs/adr/006, 010): hold, then post or void, each exactly once.
 * Only the orders service may call them (`service` is the caller's service identity).
 */
export interface Holds {
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
  defaultTimeoutSeconds: number;
}): Holds {
  const assertOrders = assertOrdersService;

  return {
    async create(service: string | undefined, req: HoldRequest): Promise<Transfer> {
      assertOrders(service);
      const reference = validReference(req.reference);
      const amount = validAmount(req.amountPaise);
      if (req.debitUserId === req.creditUserId) throw invalid('A purchase needs two different users');
      if (req.debitUserId <= 0 || req.creditUserId <= 0) throw invalid('User ids must be positive');
      const releaseAt = validReleaseAt(req.releaseAt, new Date());
      const [buyer, seller] = await Promise.all([
        d.accounts.ensure(userAccount(req.debitUserId), req.debitUserId),
        d.accounts.ensure(userAccount(req.creditUserId), req.creditUserId),
      ]);
      // A deleted buyer's wallet is closed: refused here, and by the hold's own condition if it
      // closes meanwhile. A closed seller's wallet would keep the money, but nothing is sold for it.
      if (!buyer.isActive) throw forbidden(WALLET_MESSAGES.accountClosed);
      if (!seller.isActive) throw invalid('The seller can no longer be paid');
      const description = req.description.trim().slice(0, 500) || `Purchase ${reference}`;
      // The proceeds wait in the sale's own escrow for the refund window (docs/adr/028); the
      // seller's line is theirs all the same.
      const escrow = await d.accounts.ensureEscrow({
        reference,
        sellerId: req.creditUserId,
        buyerId: req.debitUserId,
        releaseAt,
      });
      // A retry names the same sale; only the release time of a hold asked without one moves on.
      if (escrow.sellerId !== req.creditUserId || escrow.buyerId !== req.debitUserId)
        throw conflict('This transfer reference was already used for a different transfer');
      const transfer = await d.ledger.createPending(
        {
          key: `hold:${reference}`,
          kind: 'purchase',
          debit: buyer._id,
          credit: escrow._id,
          amount,
          description,
          history: walletLines(
            { key: `hold:${reference}`, reference, amount, from: buyer, to: seller },
            { type: 'debit', description, counterparty: '' },
            { type: 'credit', description: `Sale: ${description}`, counterparty: '' },
          ),
        },
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
