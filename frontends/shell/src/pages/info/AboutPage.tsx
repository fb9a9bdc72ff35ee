import { Button, Group } from '@mantine/core';
import { Link } from 'react-router-dom';
import { InfoPage } from './InfoPage';

export default function AboutPage() {
  return (
    <InfoPage
      title="About Us"
      intro="Quartermaster is a secure marketplace for military inventory: Army personnel procure equipment from verified manufacturers, paying from a prepaid wallet, while administrators keep oversight of every account, order and payment."
      sections={[
        {
          heading: 'Our mission',
          paragraphs: [
            'Procurement should be fast without being careless. We bring buyers, sellers and oversight onto one platform so that the right equipment reaches the right unit, with a clear record of who bought what, from whom and for how much.',
          ],
        },
        {
          heading: 'Who it is for',
          items: [
            'Army personnel (with Navy and Airforce divisions) who purchase equipment and supplies for their units.',
            'Manufacturers who list their products, manage stock and receive orders.',
            'Administrators who approve accounts, oversee products, orders, transactions and wallets, and answer support queries.',
          ],
        },
        {
          heading: 'How we keep it safe',
          items: [
            'Every account is reviewed by an administrator before it can sign in (usually within 24-48 hours).',
            'Wallet transfers require a PIN; sensitive changes require a one-time code sent by email.',
            'Every significant action is logged, so administrators can audit activity at any time.',
          ],
        },
        {
          heading: 'Our team',
          paragraphs: [
            'Quartermaster is built by a small team of engineers, security specialists and former logistics officers.',
          ],
        },
      ]}
    >
      <Group>
        <Button component={Link} to="/team" variant="light">
          Meet the team
        </Button>
        <Button component={Link} to="/contact" variant="default">
          Contact us
        </Button>
      </Group>
    </InfoPage>
  );
}
