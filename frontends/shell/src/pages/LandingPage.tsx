import {
  Badge,
  Box,
  Button,
  Card,
  Container,
  Group,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { useCurrentUser } from '@qm/ui';
import {
  IconActivity,
  IconArrowRight,
  IconBolt,
  IconBuildingWarehouse,
  IconCertificate,
  IconChartBar,
  IconLock,
  IconPlugConnected,
  IconRadar,
  IconRefresh,
  IconServer,
  IconShieldCheck,
  IconShieldLock,
  IconSitemap,
  IconTarget,
  type Icon,
} from '@tabler/icons-react';
import { Link, Navigate } from 'react-router-dom';

interface Feature {
  title: string;
  description: string;
  icon: Icon;
}

const FEATURES: Feature[] = [
  {
    title: 'Advanced Security',
    description:
      'Vetted accounts, administrator approval and PIN-protected transfers guard every transaction.',
    icon: IconShieldLock,
  },
  {
    title: 'Real-time Monitoring',
    description: 'Stock levels, orders and wallet activity update as they happen, across every unit.',
    icon: IconActivity,
  },
  {
    title: 'Data Protection',
    description:
      'Credentials stay with the identity provider; sessions live server-side behind secure cookies.',
    icon: IconLock,
  },
  {
    title: 'Performance Analytics',
    description: 'Administrators see users, orders, transactions and queries at a glance on one dashboard.',
    icon: IconChartBar,
  },
  {
    title: 'Automated Updates',
    description:
      'Account decisions, top-up receipts, order confirmations and sale notices, support replies and the one-time codes for password, email and wallet PIN changes reach the right people by email automatically.',
    icon: IconRefresh,
  },
  {
    title: 'Quick Response',
    description: 'The built-in assistant answers questions about orders, wallet and products in seconds.',
    icon: IconBolt,
  },
  {
    title: 'Reliable Infrastructure',
    description: 'Independent services with health checks and autoscaling keep procurement running.',
    icon: IconServer,
  },
  {
    title: 'Compliance Ready',
    description: 'Every significant action is recorded in an activity log that administrators can audit.',
    icon: IconCertificate,
  },
];

const OPERATIONS: Feature[] = [
  {
    title: 'Command & Control',
    description: 'Administrators approve accounts, oversee listings and resolve support queries centrally.',
    icon: IconSitemap,
  },
  {
    title: 'Security Protocols',
    description: 'One-time codes for sensitive changes and a wallet PIN for every transfer.',
    icon: IconShieldCheck,
  },
  {
    title: 'Real-time Tracking',
    description: 'Follow each order from purchase to completion, with buyer and seller details on record.',
    icon: IconRadar,
  },
  {
    title: 'Precision Management',
    description: 'Exact stock counts, low-stock warnings and prices to the paisa.',
    icon: IconTarget,
  },
  {
    title: 'Strategic Storage',
    description: 'Manufacturers keep their catalogue current: create, edit and retire products in minutes.',
    icon: IconBuildingWarehouse,
  },
  {
    title: 'Smart Integration',
    description: 'Card top-ups, email notifications and AI-drafted product descriptions work together.',
    icon: IconPlugConnected,
  },
];

function FeatureCard({ feature }: { feature: Feature }) {
  const { icon: FeatureIcon } = feature;
  return (
    <Card withBorder radius="md" padding="lg" className="qm-feature-card">
      <ThemeIcon size={44} radius="md" variant="light">
        <FeatureIcon size={24} />
      </ThemeIcon>
      <Title order={3} size="h4" mt="md">
        {feature.title}
      </Title>
      <Text size="sm" c="dimmed" mt={6}>
        {feature.description}
      </Text>
    </Card>
  );
}

export default function LandingPage() {
  const { user, isAdmin } = useCurrentUser();
  // A signed-in non-admin visiting exactly / goes to their wallet (docs/product.md §2).
  if (user && !isAdmin) return <Navigate to="/wallet" replace />;

  return (
    <>
      <Box className="qm-hero" py={{ base: 56, md: 96 }}>
        <Container size="lg">
          <Stack align="center" ta="center" gap="lg">
            <Badge size="lg" variant="light" radius="sm">
              MILITARY INVENTORY MANAGEMENT
            </Badge>
            <Title order={1} fz={{ base: 36, sm: 48, md: 60 }} lh={1.1}>
              Secure. Efficient. Reliable.
            </Title>
            <Text size="lg" c="dimmed" maw={640}>
              The marketplace where Army units procure equipment from verified manufacturers, paying from a
              prepaid wallet under full administrator oversight.
            </Text>
            <Group justify="center">
              <Button component={Link} to="/readme" size="md" variant="default">
                Learn More
              </Button>
              <Button
                component={Link}
                to="/auth?tab=register"
                size="md"
                rightSection={<IconArrowRight size={18} />}
              >
                Request Access
              </Button>
            </Group>
          </Stack>
        </Container>
      </Box>

      <Container size="lg" py={{ base: 48, md: 72 }}>
        <Stack align="center" ta="center" gap="xs" mb="xl">
          <Title order={2}>Built for mission-critical procurement</Title>
          <Text c="dimmed" maw={600}>
            Everything needed to buy, sell and account for military supplies, in one secure platform.
          </Text>
        </Stack>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="lg">
          {FEATURES.map((feature) => (
            <FeatureCard key={feature.title} feature={feature} />
          ))}
        </SimpleGrid>
      </Container>

      <Container size="lg" pb={{ base: 48, md: 72 }}>
        <Stack align="center" ta="center" gap="xs" mb="xl">
          <Title order={2}>Operational capabilities</Title>
          <Text c="dimmed" maw={600}>
            From command oversight to the warehouse shelf, every step is accounted for.
          </Text>
        </Stack>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
          {OPERATIONS.map((feature) => (
            <FeatureCard key={feature.title} feature={feature} />
          ))}
        </SimpleGrid>
      </Container>
    </>
  );
}
