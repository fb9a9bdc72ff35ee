import { conflict, invalid, notFound } from '@qm/platform';
import { escrowAccount, userAccount, validReference } from '../domain/ledger';
import type { AccountStore } from '../store/accounts';
import type { TransferStore } from '../store/transfers';
import { assertOrdersService } from './holds';
import { type Ledger, walletLines } from './ledger';

/** Refused when the proceeds were released and the seller's balance is short of the price. */
export const SELLER_SHORT = "The seller's wallet cannot cover this refund now";

/** The key of a sale's refund attempt. */
export const refundKey = (reference: string, attempt: number) => `refund:${reference}:${attempt}`;

/**
 * A sale's refund in the ledger (docs/adr/028), asked by the orders service, which owns the request
 * and its decision: hold the proceeds while the request is open, let them go when it is rejected,
 * pay the buyer back when it is approved.
 */
export interface SaleRefunds {
  /** Freezes the escrow: `held` while its proceeds are there, false once they were released. */
  hold(service: string | undefined, reference: string): Promise<{ held: boolean }>;
  unhold(service: string | undefined, reference: string): Promise<void>;
  /** Pays the price back: from the escrow while it holds it, else from the seller's balance. */
  refund(
    service: string | undefined,
    reference: string,
    attempt: number,
  ): Promise<{ source: 'escrow' | 'seller'; amount: number }>;
}

export function createSaleRefunds(d: {
  accounts: AccountStore;
  transfers: TransferStore;
  ledger: Ledger;
}): SaleRefunds {
  const { accounts, transfers, ledger } = d;

  /** The sale behind a reference: its escrow and its posted payment. */
  async function saleOf(reference: string) {
    const ref = validReference(reference);
    const [escrow, payment] = await Promise.all([
      accounts.get(escrowAccount(ref)),
      transfers.byKey(`hold:${ref}`),
    ]);
    if (!escrow || payment?.state !== 'posted') throw notFound('No completed sale under this reference');
    return { ref, escrow, payment };
  }

  return {
    async hold(service, reference) {
      assertOrdersService(service);
      const { escrow } = await saleOf(reference);
      return { held: (await accounts.freeze(escrow._id)) === 'held' };
    },

    async unhold(service, reference) {
      assertOrdersService(service);
      const { escrow } = await saleOf(reference);
      await accounts.unfreeze(escrow._id);
    },

    async refund(service, reference, attempt) {
      assertOrdersService(service);
      if (!Number.isInteger(attempt) || attempt < 1)
        throw invalid('The attempt must be a whole number from 1');
      const { ref, escrow, payment } = await saleOf(reference);
      const key = refundKey(ref, attempt);
      const [seller, buyer] = await Promise.all([
        accounts.get(userAccount(escrow.sellerId!)),
        accounts.get(userAccount(escrow.buyerId!)),
      ]);
      // An attempt already recorded goes on from where it was: its source was chosen then.
      const recorded = await ledger.byKey(key);
      const debit = recorded?.debitAccount ?? (escrow.available >= payment.amount ? escrow._id : seller!._id);
      const description = `Refund: ${payment.description}`;
      const t = await ledger.transfer({
        key,
        kind: 'refund',
        debit,
        credit: buyer!._id,
        amount: payment.amount,
        description,
        history: walletLines(
          { key, reference: ref, amount: payment.amount, from: seller!, to: buyer! },
          { type: 'debit', description, counterparty: '' },
          { type: 'credit', description, counterparty: '' },
        ),
      });
      if (t.state === 'failed') throw conflict(SELLER_SHORT);
      return { source: debit === escrow._id ? 'escrow' : 'seller', amount: t.amount };
    },
  };
}
