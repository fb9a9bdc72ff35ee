/** What the wallet publishes (stream QM_WALLET) beside its users' activity (QM_ACTIVITY). */
export const WALLET_SUBJECTS = {
  /** Money arrived in a user's wallet from another user's transfer (the receiver's side of it). */
  transferReceived: 'wallet.transfer.received',
} as const;

export interface TransferReceivedData {
  receiverId: number;
  senderUsername: string;
  amountPaise: number;
  /** The transfer's reference, the same on the sender's and the receiver's history lines. */
  reference: string;
}
