import { Avatar, Card, Container, SimpleGrid, Stack, Text, Title } from '@mantine/core';

const TEAM = [
  {
    initials: 'PL',
    role: 'Product & Logistics',
    text: 'Former logistics officers who shape how units actually procure, receive and account for supplies.',
  },
  {
    initials: 'PE',
    role: 'Platform Engineering',
    text: 'Build and run the services, the gateway and the web application, and keep them available.',
  },
  {
    initials: 'SE',
    role: 'Security',
    text: 'Own identity, sessions, one-time codes and the audit trail; review every change that touches money.',
  },
  {
    initials: 'MS',
    role: 'Manufacturer Success',
    text: 'Help manufacturers onboard, list their catalogue and settle their sales.',
  },
  {
    initials: 'SP',
    role: 'Support',
    text: 'Answer queries from the contact form and guide new users through approval and their first purchase.',
  },
  {
    initials: 'CO',
    role: 'Compliance & Oversight',
    text: 'Review accounts, watch transactions and keep procurement within policy.',
  },
];

export default function TeamPage() {
  return (
    <Container size="lg" py="xl">
      <Stack gap="xs" mb="xl">
        <Title order={1}>Our Team</Title>
        <Text size="lg" c="dimmed">
          The people behind Quartermaster, organised around the work they do for our users.
        </Text>
      </Stack>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
        {TEAM.map((member) => (
          <Card key={member.role} withBorder radius="md" padding="lg">
            <Avatar color="army" radius="xl" size="lg">
              {member.initials}
            </Avatar>
            <Title order={2} size="h4" mt="md">
              {member.role}
            </Title>
            <Text size="sm" c="dimmed" mt={6}>
              {member.text}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
    </Container>
  );
}
