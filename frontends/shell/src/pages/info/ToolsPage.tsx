import { Badge, Card, Container, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';

const GROUPS: { title: string; description: string; tools: string[] }[] = [
  {
    title: 'Web application',
    description:
      'Micro-frontends: a shell application loads the market, wallet and admin modules at runtime.',
    tools: [
      'React',
      'TypeScript',
      'Mantine',
      'TanStack Query',
      'React Router',
      'Module Federation',
      'Rspack',
    ],
  },
  {
    title: 'API gateway',
    description: 'The single public entry: REST API, sessions, CSRF protection and OpenAPI documentation.',
    tools: ['Node.js', 'Express', 'OpenAPI 3.1', 'zod'],
  },
  {
    title: 'Services',
    description: 'Identity, catalog, wallet, orders, support, activity and assistant.',
    tools: ['gRPC', 'Protocol Buffers', 'NATS JetStream', 'MongoDB'],
  },
  {
    title: 'Identity & security',
    description: 'Credentials and roles live in the identity provider; the browser never holds a token.',
    tools: ['Keycloak', 'OpenID Connect', 'One-time codes by email'],
  },
  {
    title: 'Payments, email & AI',
    description: 'Real providers in production, with local sandboxes for development.',
    tools: ['Stripe', 'SMTP', 'OpenAI-compatible API'],
  },
  {
    title: 'Operations',
    description: 'Containerised services deployed with health probes, autoscaling and metrics.',
    tools: ['Kubernetes', 'Helm', 'Skaffold', 'Prometheus metrics', 'Playwright', 'k6'],
  },
];

export default function ToolsPage() {
  return (
    <Container size="lg" py="xl">
      <Stack gap="xs" mb="xl">
        <Title order={1}>Tools & Technology</Title>
        <Text size="lg" c="dimmed">
          The stack Quartermaster is built on.
        </Text>
      </Stack>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
        {GROUPS.map((group) => (
          <Card key={group.title} withBorder radius="md" padding="lg">
            <Title order={2} size="h4">
              {group.title}
            </Title>
            <Text size="sm" c="dimmed" mt={6} mb="md">
              {group.description}
            </Text>
            <Group gap={6}>
              {group.tools.map((tool) => (
                <Badge key={tool} variant="light">
                  {tool}
                </Badge>
              ))}
            </Group>
          </Card>
        ))}
      </SimpleGrid>
    </Container>
  );
}
