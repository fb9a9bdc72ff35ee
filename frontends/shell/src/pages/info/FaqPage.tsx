import { Accordion, Container, Stack, Tabs, Text, Title } from '@mantine/core';

const FAQ: Record<string, { q: string; a: string }[]> = {
  General: [
    {
      q: 'What is Quartermaster?',
      a: 'A secure marketplace where Army personnel buy military equipment and supplies from verified manufacturers, paying from a prepaid wallet, under administrator oversight.',
    },
    {
      q: 'How do I get an account?',
      a: 'Choose Request Access and register as Army personnel or as a Manufacturer. An administrator reviews every registration, usually within 24-48 hours, and you receive the decision by email.',
    },
    {
      q: 'I forgot my password. What now?',
      a: 'Use "Forgot password" on the sign-in page. We email you a 6-digit code; enter it and choose a new password.',
    },
    {
      q: 'How do I contact support?',
      a: 'Send a message through the Contact page. Our team replies by email and you can follow up the same way.',
    },
  ],
  'Army Personnel': [
    {
      q: 'How do I add money to my wallet?',
      a: 'Open Wallet, choose Add Money and pay by card. Each top-up can be between ₹100 and ₹1,00,000.',
    },
    {
      q: 'What is the wallet PIN?',
      a: 'A PIN you set once and enter for every transfer. Setting it up requires a one-time code sent to your email.',
    },
    {
      q: 'Can I get a refund?',
      a: 'Yes, within 48 hours of a purchase: choose Request refund on the order under Orders → Purchases and give the reason. Requests are processed within 5-7 business days; an approved refund returns the full amount to your wallet, and you are told by email.',
    },
    {
      q: 'Where can I see my orders?',
      a: 'Under Orders → Purchases, with the product, quantity, total and status of every order.',
    },
  ],
  Manufacturers: [
    {
      q: 'How do I list a product?',
      a: 'Open Market and choose Create Item. Give it a name, type, price, stock and description; the AI generator can draft the description for you.',
    },
    {
      q: 'What does it cost to sell?',
      a: 'The platform commission is typically 5 percent of each sale.',
    },
    {
      q: 'When do I get paid?',
      a: "A sale's payment is held for 48 hours, while the buyer may ask for a refund, and then reaches your wallet's balance by itself. Your wallet shows each held amount and when it is released.",
    },
    {
      q: 'Who sees my buyer details?',
      a: 'Only you, for your own sales, under Orders → Sales, and the administrators.',
    },
  ],
  Admin: [
    {
      q: 'How do I approve a registration?',
      a: 'Open Users from the Admin menu. Pending users have Approve and Reject actions; a rejection needs a reason, which is emailed to the user.',
    },
    {
      q: 'How do I answer a support query?',
      a: 'Open Queries, view the query and write a response. You can reply and mark it in progress, or respond and resolve it.',
    },
    {
      q: 'Can I see what users have done?',
      a: 'Yes: the Activity Log lists sign-ins, profile changes, wallet operations and orders for every user.',
    },
  ],
};

export default function FaqPage() {
  const tabs = Object.keys(FAQ);
  // Mantine builds the ids that tie a tab to its panel and a question to its answer from these values:
  // an id with a space in it breaks aria-controls/aria-labelledby, so each value is a slug.
  const slug = (text: string) =>
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
  return (
    <Container size="md" py="xl">
      <Stack gap="xs" mb="xl">
        <Title order={1}>Frequently Asked Questions</Title>
        <Text size="lg" c="dimmed">
          Answers for every kind of user. Can&apos;t find yours? Ask us through the Contact page.
        </Text>
      </Stack>
      <Tabs defaultValue={slug(tabs[0] ?? '')}>
        <Tabs.List mb="md">
          {tabs.map((tab) => (
            <Tabs.Tab key={tab} value={slug(tab)}>
              {tab}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {tabs.map((tab) => (
          <Tabs.Panel key={tab} value={slug(tab)}>
            {/* Single-open: opening a question closes the previous one. */}
            <Accordion variant="separated">
              {(FAQ[tab] ?? []).map(({ q, a }, i) => (
                <Accordion.Item key={q} value={`${slug(tab)}-${i + 1}`}>
                  <Accordion.Control>{q}</Accordion.Control>
                  <Accordion.Panel>{a}</Accordion.Panel>
                </Accordion.Item>
              ))}
            </Accordion>
          </Tabs.Panel>
        ))}
      </Tabs>
    </Container>
  );
}
