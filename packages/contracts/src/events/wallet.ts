import { NOTICE_PREFIX } from '@qm/platform';

/** What the wallet publishes (stream QM_WALLET) beside its users' activity (QM_ACTIVITY). */
export const WALLET_SUBJECTS = {
  /**
   * Money arrived in a user's wallet from another user's transfer (the receiver's side of it): a
   * notice for the receiver's live feed, kept by no stream (docs/adr/050).
   */
  transferReceived: `${NOTICE_PREFIX}wallet.transfer.received`,
  /** A card top-up was credited to its user's wallet (its receipt is mailed from this event). */
  topUpCredited: 'wallet.topup.credited',
} as const;

export interface TransferReceivedData {
  receiverId: number;
  senderUsername: string;
  amountPaise: number;
  /** The transfer's reference, the same on the sender's and the receiver's history lines. */
  reference: string;
}

export interface TopUpCreditedData {
  userId: number;
  topUpId: number;
  amountPaise: number;
  provider: string;
  /** The provider's reference of the payment. */
  providerPaymentId: string;
}
