import { InfoPage } from './InfoPage';

export default function TermsPage() {
  return (
    <InfoPage
      title="Terms & Conditions"
      note="These terms govern your use of Quartermaster."
      sections={[
        {
          heading: '1. Eligibility and accounts',
          paragraphs: [
            'Accounts are for authorised Army personnel and registered manufacturers. Every registration is reviewed by an administrator, who may approve or reject it; only approved accounts may sign in. You are responsible for the accuracy of your details and for keeping your password and wallet PIN secret.',
          ],
        },
        {
          heading: '2. Wallet',
          paragraphs: [
            'Your wallet holds a balance in Indian rupees, funded by card payments of ₹100 to ₹1,00,000 per top-up. Transfers to other users require your wallet PIN. Wallet balances do not earn interest and are not a deposit account.',
          ],
        },
        {
          heading: '3. Purchases and listings',
          paragraphs: [
            'A purchase is paid from your wallet when you place the order and cannot exceed the available stock. Manufacturers must list only products they are licensed to supply, describe them accurately and keep stock up to date. A platform commission, typically 5 percent, applies to sales.',
          ],
        },
        {
          heading: '4. Acceptable use',
          items: [
            'Do not attempt to access accounts, data or functions you are not authorised to use.',
            'Do not interfere with the platform, probe it for vulnerabilities or submit malicious input.',
            'Do not use the platform for any unlawful procurement.',
          ],
        },
        {
          heading: '5. Monitoring',
          paragraphs: [
            'Significant actions (sign-ins, profile changes, wallet operations, orders) are logged and may be reviewed by administrators.',
          ],
        },
        {
          heading: '6. Suspension and changes',
          paragraphs: [
            'We may delete accounts that breach these terms, which ends their sessions at once. We may update these terms; continued use after an update means you accept the new terms.',
          ],
        },
      ]}
    />
  );
}
