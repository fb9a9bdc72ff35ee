import { Badge, Container, Group, Stack, Text, ThemeIcon, Timeline, Title } from '@mantine/core';
import { IconCheck, IconClock, IconLoader } from '@tabler/icons-react';

type Status = 'completed' | 'in-progress' | 'upcoming';

const STATUS: Record<Status, { label: string; color: string; icon: typeof IconCheck }> = {
  completed: { label: 'Completed', color: 'green', icon: IconCheck },
  'in-progress': { label: 'In progress', color: 'yellow', icon: IconLoader },
  upcoming: { label: 'Upcoming', color: 'gray', icon: IconClock },
};

const WEEKS: { week: string; title: string; status: Status; items: string[] }[] = [
  {
    week: 'Week 1',
    title: 'Foundations',
    status: 'completed',
    items: [
      'Accounts with administrator approval',
      'Sign-in, sessions and password reset',
      'Landing and policy pages',
    ],
  },
  {
    week: 'Week 2',
    title: 'Marketplace',
    status: 'completed',
    items: [
      'Product listings for manufacturers',
      'Market with stock indicators',
      'Orders for buyers and sellers',
    ],
  },
  {
    week: 'Week 3',
    title: 'Wallet',
    status: 'completed',
    items: ['Card top-ups', 'PIN-protected transfers with one-time codes', 'Transaction history'],
  },
  {
    week: 'Week 4',
    title: 'Oversight',
    status: 'completed',
    items: ['Admin dashboard and management pages', 'Support query inbox', 'User activity log'],
  },
  {
    week: 'Week 5',
    title: 'Assistant',
    status: 'completed',
    items: ['AI chat assistant over your own data', 'AI product description generator'],
  },
  {
    week: 'Week 6',
    title: 'Scale & polish',
    status: 'completed',
    items: [
      'Load testing and crash testing of payments',
      'Accessibility checks on every page',
      'A Helm chart with autoscaling',
    ],
  },
  {
    week: 'Week 7',
    title: 'Trust & production',
    status: 'in-progress',
    items: [
      'Attempt limits and signed service identity',
      'Clear payment states: failed and expired top-ups',
      'Refunds and emailed receipts',
      'The chart installed on a real Kubernetes cluster',
      'Newsletter',
    ],
  },
];

export default function RoadmapPage() {
  const active = WEEKS.filter((week) => week.status !== 'upcoming').length - 1;
  return (
    <Container size="md" py="xl">
      <Stack gap="xs" mb="xl">
        <Title order={1}>Project Roadmap</Title>
        <Text size="lg" c="dimmed">
          Where Quartermaster is, week by week.
        </Text>
      </Stack>
      <Timeline active={active} bulletSize={28} lineWidth={2}>
        {WEEKS.map((week) => {
          const status = STATUS[week.status];
          const StatusIcon = status.icon;
          return (
            <Timeline.Item
              key={week.week}
              bullet={
                <ThemeIcon size={28} radius="xl" color={status.color}>
                  <StatusIcon size={16} />
                </ThemeIcon>
              }
              title={
                <Group gap="xs">
                  <Text fw={700}>
                    {week.week}: {week.title}
                  </Text>
                  <Badge color={status.color} variant="light" size="sm">
                    {status.label}
                  </Badge>
                </Group>
              }
            >
              {week.items.map((item) => (
                <Text key={item} size="sm" c="dimmed">
                  {item}
                </Text>
              ))}
            </Timeline.Item>
          );
        })}
      </Timeline>
    </Container>
  );
}
