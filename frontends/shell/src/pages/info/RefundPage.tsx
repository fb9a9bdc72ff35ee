import { InfoPage } from './InfoPage';

export default function RefundPage() {
  return (
    <InfoPage
      title="Refund Policy"
      sections={[
        {
          heading: 'Requesting a refund',
          paragraphs: [
            'You may request a refund within 48 hours of a purchase or wallet top-up by contacting support through the contact form, quoting the order number or transaction and the reason for the request.',
          ],
        },
        {
          heading: 'Processing time',
          paragraphs: [
            'Approved refunds are processed within 5-7 business days. Refunds for purchases are returned to your wallet; refunds of wallet top-ups are returned to the original card.',
          ],
        },
        {
          heading: 'What cannot be refunded',
          items: [
            'Requests made more than 48 hours after the purchase or top-up.',
            'Transfers you made to another user with your PIN.',
            'Products already dispatched and accepted by your unit, unless they are defective.',
          ],
        },
        {
          heading: 'Manufacturers',
          paragraphs: [
            'When a purchase is refunded the sale is reversed; settlements (normally within 3-5 business days) are adjusted accordingly.',
          ],
        },
      ]}
    />
  );
}
