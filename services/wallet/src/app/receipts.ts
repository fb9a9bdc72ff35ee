import { type TopUpCreditedData, WALLET_SUBJECTS } from '@qm/contracts/events';
import { formatPaise, longDateTime, type PaymentProviderName } from '@qm/contracts/rest';
import { type Logger, type Mailer, outgoingEvent, RetryLater } from '@qm/platform';
import { z } from 'zod';
import { userAccount } from '../domain/ledger';
import { walletMails } from '../mail/templates';
import type { AccountStore } from '../store/accounts';
import type { TopUpStore } from '../store/topups';
import type { Directory } from './identity';

/** Announced by the ledger with a top-up's credit, so its receipt follows the money exactly. */
export function topUpCreditedEvent(data: TopUpCreditedData) {
  return outgoingEvent<TopUpCreditedData>(WALLET_SUBJECTS.topUpCredited, data);
}

const TopUpCredited = z.object({
  userId: z.number().int().positive(),
  topUpId: z.number().int().positive(),
});

const PROVIDER_NAMES: Record<PaymentProviderName, string> = {
  sandbox: 'Card (sandbox)',
  stripe: 'Card (Stripe)',
};

export interface Receipts {
  /** Mails the receipt of the top-up a wallet.topup.credited event names (docs/adr/012). */
  topUpCredited(event: { id: string; data: unknown }): Promise<void>;
}

/**
 * The receipt reads the top-up and the wallet when it is sent, not the event: the event carries ids,
 * and the address comes from identity (a user who changed their email gets it at the new one).
 */
export function createReceipts(d: {
  topups: TopUpStore;
  accounts: AccountStore;
  directory: Directory;
  mailer: Mailer;
  log: Logger;
}): Receipts {
  return {
    async topUpCredited(event) {
      const parsed = TopUpCredited.safeParse(event.data);
      if (!parsed.success) {
        d.log.error({ eventId: event.id, issues: parsed.error.issues }, 'malformed top-up event ignored');
        return;
      }
      const { userId, topUpId } = parsed.data;
      const [topUp, user, wallet] = await Promise.all([
        d.topups.byId(topUpId),
        d.directory.byId(userId),
        d.accounts.get(userAccount(userId)),
      ]);
      if (!topUp || topUp.userId !== userId || !wallet) {
        d.log.error({ eventId: event.id, topUpId }, 'no top-up or wallet for this event: no receipt');
        return;
      }
      // The ledger announces the credit as it posts it, a moment before the top-up is marked
      // completed (or the sweep marks it, after a crash): until then, the event comes back later.
      if (topUp.status !== 'completed') throw new RetryLater(`top-up ${topUpId} is not completed yet`);
      // A deleted user has no address left to write to.
      if (!user) return;
      await d.mailer.send(
        user.email,
        walletMails.topUpReceipt({
          firstName: user.firstName || user.username,
          topUpId,
          amount: formatPaise(topUp.amount),
          provider: PROVIDER_NAMES[topUp.provider] ?? topUp.provider,
          reference: topUp.providerPaymentId ?? '',
          creditedAt: longDateTime((topUp.completedAt ?? topUp.updatedAt).toISOString()),
          balance: formatPaise(wallet.balance),
        }),
      );
    },
  };
}
