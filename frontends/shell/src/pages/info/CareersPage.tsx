import { Button, Group } from '@mantine/core';
import { Link } from 'react-router-dom';
import { InfoPage } from './InfoPage';

/** /careers (docs/product.md §2 footer). Says only what is true: no openings are listed, and how to reach us. */
export default function CareersPage() {
  return (
    <InfoPage
      title="Careers"
      intro="Quartermaster is built by a small team of engineers, security specialists and former logistics officers."
      sections={[
        {
          heading: 'Open positions',
          paragraphs: [
            'We have no open positions listed at the moment. When we do, they will appear on this page.',
          ],
        },
        {
          heading: 'Getting in touch',
          paragraphs: [
            'If you would like to work with us, tell us about yourself through the contact form, with "Careers" as the subject. We read every message.',
          ],
        },
      ]}
    >
      <Group>
        <Button component={Link} to="/contact" variant="light">
          Contact us
        </Button>
        <Button component={Link} to="/team" variant="default">
          Meet the team
        </Button>
      </Group>
    </InfoPage>
  );
}
