import { InfoPage } from './InfoPage';

export default function PrivacyPage() {
  return (
    <InfoPage
      title="Privacy Policy"
      sections={[
        {
          heading: 'What we collect',
          items: [
            'Account details: username, name, email, phone number, role and, for manufacturers, licence number and years of experience.',
            'Profile details you choose to add, such as address and bio.',
            'Wallet balance, transactions, orders and support queries.',
            'An activity log of significant actions (sign-ins, profile changes, wallet and order operations).',
          ],
        },
        {
          heading: 'How we use it',
          items: [
            'To review and approve your account and to operate your wallet and orders.',
            'To show buyers the manufacturer of a product, and manufacturers the buyer details of their sales.',
            'To send one-time codes, approval decisions and confirmations by email.',
            'To let administrators audit activity and answer your queries.',
            'To answer your questions through the AI assistant, which uses your own account data only.',
          ],
        },
        {
          heading: 'How we protect it',
          paragraphs: [
            'Passwords are held by our identity provider and never stored by the application. Sessions are kept on the server behind secure, http-only cookies. With Stripe configured, card details go straight to Stripe and we never see your card number. The built-in test checkout (labelled "Sandbox — no real money") sends the test card number to our server, which checks it and does not store it; never enter a real card there.',
          ],
        },
        {
          heading: 'Your choices',
          paragraphs: [
            'You can view and update your profile at any time. To ask for a copy of your data or for its deletion, contact support.',
          ],
        },
      ]}
    />
  );
}
