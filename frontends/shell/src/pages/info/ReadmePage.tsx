import { Button, Group } from '@mantine/core';
import { Link } from 'react-router-dom';
import { InfoPage } from './InfoPage';

export default function ReadmePage() {
  return (
    <InfoPage
      title="Readme"
      intro="Quartermaster in one page: what it does, who uses it and how an account goes from registration to its first purchase."
      sections={[
        {
          heading: 'What Quartermaster does',
          items: [
            'A marketplace of military equipment and supplies: weapons, vehicles, equipment, ammunition and more.',
            'A wallet in rupees for every user, funded by card and usable for purchases and transfers to other users.',
            'Administrator oversight of users, products, orders, transactions, wallets and support queries.',
            'An AI assistant that answers questions about your orders, wallet and products.',
          ],
        },
        {
          heading: 'Account lifecycle',
          items: [
            'Register as Army personnel or as a Manufacturer; the account starts as pending.',
            'An administrator approves or rejects it (typically within 2-3 business days) and you are told by email.',
            'Once approved, sign in and set up your wallet PIN with a one-time code sent to your email.',
            'Add money to the wallet by card (₹100 to ₹1,00,000 per top-up) and start purchasing.',
          ],
        },
        {
          heading: 'Buying',
          paragraphs: [
            'Browse the market, choose a quantity up to the available stock and pay from your wallet. The order appears under Orders straight away; the manufacturer sees it under Sales.',
          ],
        },
        {
          heading: 'Selling',
          paragraphs: [
            'Manufacturers create products with a name, type, price, stock and description (an AI generator can draft the description), and edit or remove them at any time. The platform commission is typically 5 percent; a sale’s payment reaches the manufacturer’s balance once its 48-hour refund window closes.',
          ],
        },
      ]}
    >
      <Group>
        <Button component={Link} to="/auth?tab=register">
          Request Access
        </Button>
        <Button component={Link} to="/guide" variant="default">
          Read the User Guide
        </Button>
      </Group>
    </InfoPage>
  );
}
