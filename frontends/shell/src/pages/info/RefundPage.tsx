import { InfoPage } from './InfoPage';

export default function RefundPage() {
  return (
    <InfoPage
      title="Refund Policy"
      sections={[
        {
          heading: 'Requesting a refund',
          paragraphs: [
            'You may request a refund of a completed purchase within 48 hours: open Orders → Purchases, choose Request refund on the order and give the reason. One request per order.',
          ],
        },
        {
          heading: 'Processing time',
          paragraphs: [
            'An administrator approves or rejects every request; refunds are processed within 5-7 business days. An approved refund returns the full amount of the purchase to your wallet at once; a rejection gives its reason. The order shows where your request stands, and you are told by email.',
          ],
        },
        {
          heading: 'What cannot be refunded',
          items: [
            'Requests made more than 48 hours after the purchase.',
            'Wallet top-ups, and transfers you made to another user with your PIN.',
            'Products already dispatched and accepted by your unit, unless they are defective.',
          ],
        },
        {
          heading: 'Manufacturers',
          paragraphs: [
            "A sale's payment is held for the 48 hours in which its buyer may ask for a refund, then reaches your wallet's balance by itself; while a request is open it stays held until the request is decided. When a refund is approved the payment goes back to the buyer and the units return to your product's stock.",
          ],
        },
      ]}
    />
  );
}
