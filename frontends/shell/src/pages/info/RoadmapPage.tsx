import { Badge, Container, Group, Stack, Text, ThemeIcon, Timeline, Title } from '@mantine/core';
import { IconCheck, IconClock, IconLoader } from '@tabler/icons-react';

import { ROADMAP, type RoadmapStatus } from './roadmap';

const STATUS: Record<RoadmapStatus, { label: string; color: string; icon: typeof IconCheck }> = {
  completed: { label: 'Completed', color: 'green', icon: IconCheck },
  'in-progress': { label: 'In progress', color: 'yellow', icon: IconLoader },
  upcoming: { label: 'Upcoming', color: 'gray', icon: IconClock },
};

export default function RoadmapPage() {
  const active = ROADMAP.filter((week) => week.status !== 'upcoming').length - 1;
  return (
    <Container size="md" py="xl">
      <Stack gap="xs" mb="xl">
        <Title order={1}>Project Roadmap</Title>
        <Text size="lg" c="dimmed">
          Where Quartermaster is, week by week.
        </Text>
      </Stack>
      <Timeline active={active} bulletSize={28} lineWidth={2}>
        {ROADMAP.map((week) => {
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
