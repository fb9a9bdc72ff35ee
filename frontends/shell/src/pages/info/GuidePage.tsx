import { Card, Container, List, SimpleGrid, Stack, Text, ThemeIcon, Timeline, Title } from '@mantine/core';
import { IconBuildingFactory, IconShieldCheck, IconUser, type Icon } from '@tabler/icons-react';

const ROLES: { title: string; icon: Icon; items: string[] }[] = [
  {
    title: 'Army Personnel',
    icon: IconUser,
    items: [
      'Browse the market and check stock and manufacturer details.',
      'Pay for orders from your wallet and follow them under Orders.',
      'Add money by card and transfer funds to other users with your PIN.',
    ],
  },
  {
    title: 'Manufacturers',
    icon: IconBuildingFactory,
    items: [
      'Create products with price, stock and description; let the AI generator draft descriptions.',
      'Edit or delete your own products at any time.',
      'See your sales, with buyer details, under Orders → Sales.',
    ],
  },
  {
    title: 'Administrators',
    icon: IconShieldCheck,
    items: [
      'Approve or reject registrations (a rejection needs a reason, which is emailed).',
      'Oversee products, orders, transactions and wallets from the dashboard; Admin → Wallets lists every wallet with its balance, money on hold and last movement, and opens that user’s transactions.',
      'Find users by name, username or email under Admin → Users, filtered by status and role.',
      'Answer support queries and browse the activity log of every user.',
    ],
  },
];

const HOW_TOS: { title: string; steps: string[] }[] = [
  {
    title: 'Set up your wallet PIN',
    steps: [
      'Open Wallet and choose Transfer.',
      'Enter a new PIN (at least 6 characters) and confirm it.',
      'Send the one-time code to your email, enter it and verify.',
    ],
  },
  {
    title: 'Add money',
    steps: [
      'Open Wallet and choose Add Money.',
      'Enter an amount between ₹100 and ₹1,00,000 and choose Proceed to Pay.',
      'Complete the card payment; your balance updates once the payment is verified.',
    ],
  },
  {
    title: 'Buy a product',
    steps: [
      'Open Market and choose Purchase on a product that is in stock.',
      'Pick the quantity and check the total against your wallet balance.',
      'Choose Pay Now; you are taken to your orders once the payment succeeds.',
    ],
  },
  {
    title: 'List a product (manufacturers)',
    steps: [
      'Open Market and choose Create Item.',
      'Fill in name, type, price, stock and description, or generate the description with AI.',
      'Save; the product appears in the market straight away.',
    ],
  },
];

export default function GuidePage() {
  return (
    <Container size="lg" py="xl">
      <Stack gap="xs" mb="xl">
        <Title order={1}>User Guide</Title>
        <Text size="lg" c="dimmed">
          What each role can do on Quartermaster, and step-by-step instructions for the common tasks.
        </Text>
      </Stack>

      <Title order={2} size="h3" mb="md">
        Role guides
      </Title>
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg" mb="xl">
        {ROLES.map(({ title, icon: RoleIcon, items }) => (
          <Card key={title} withBorder radius="md" padding="lg">
            <ThemeIcon variant="light" size="lg">
              <RoleIcon size={20} />
            </ThemeIcon>
            <Title order={3} size="h4" mt="sm" mb="xs">
              {title}
            </Title>
            <List size="sm" spacing={4}>
              {items.map((item) => (
                <List.Item key={item}>{item}</List.Item>
              ))}
            </List>
          </Card>
        ))}
      </SimpleGrid>

      <Title order={2} size="h3" mb="md">
        How to
      </Title>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        {HOW_TOS.map(({ title, steps }) => (
          <Card key={title} withBorder radius="md" padding="lg">
            <Title order={3} size="h4" mb="md">
              {title}
            </Title>
            <Timeline active={steps.length} bulletSize={22} lineWidth={2}>
              {steps.map((step, index) => (
                <Timeline.Item key={step} bullet={<Text size="xs">{index + 1}</Text>}>
                  <Text size="sm">{step}</Text>
                </Timeline.Item>
              ))}
            </Timeline>
          </Card>
        ))}
      </SimpleGrid>
    </Container>
  );
}
