import '@mantine/charts/styles.css';
import { AreaChart, BarChart, DonutChart } from '@mantine/charts';
import { Box, Card, ColorSwatch, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { USER_ROLES } from '@qm/contracts/rest';
import { formatINR, LoadError } from '@qm/ui';
import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import {
  compactINR,
  DASHBOARD_DAYS,
  dayPoints,
  moneyStatsQuery,
  ORDER_STATUS_LEGEND,
  orderStatsQuery,
  rupees,
  type Slice,
  slices,
  USER_STATUS_LEGEND,
  userStatsQuery,
  windowTotal,
} from '../stats';

const CHART_HEIGHT = 220;
const WINDOW = `Last ${DASHBOARD_DAYS} days (India time)`;

/** Ticks thin out on a phone instead of overlapping; the first and last day always show. */
const DAY_AXIS = { interval: 'preserveStartEnd', minTickGap: 24 } as const;

/**
 * The dashboard's charts (docs/API.md): money in and purchases per day, orders and registrations by
 * status. Each is fed by an aggregate endpoint (a few numbers per day or status, never the rows).
 * Loaded on its own (React.lazy) so recharts is fetched only for this page.
 */
export default function DashboardCharts() {
  const money = useQuery(moneyStatsQuery());
  const orders = useQuery(orderStatsQuery());
  const users = useQuery(userStatsQuery());

  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} mt="lg" spacing="lg">
      <ChartCard
        title="Money in"
        subtitle={`Completed top-ups · ${WINDOW}`}
        testId="chart-money"
        query={money}
      >
        {(data) => {
          const total = windowTotal(data.days);
          if (total.count === 0) return <NoData>No top-ups in the last {DASHBOARD_DAYS} days</NoData>;
          return (
            <>
              <Figure value={formatINR(rupees(total.amountPaise))} detail={plural(total.count, 'top-up')} />
              <AreaChart
                h={CHART_HEIGHT}
                data={dayPoints(data.days)}
                dataKey="label"
                series={[{ name: 'rupees', label: 'Money in', color: 'teal.6' }]}
                curveType="monotone"
                withDots={false}
                valueFormatter={formatINR}
                xAxisProps={DAY_AXIS}
                yAxisProps={{ tickFormatter: compactINR, width: 64 }}
                gridAxis="x"
              />
            </>
          );
        }}
      </ChartCard>

      <ChartCard
        title="Purchases"
        subtitle={`Completed orders by the day placed · ${WINDOW}`}
        testId="chart-purchases"
        query={orders}
      >
        {(data) => {
          const total = windowTotal(data.days);
          if (total.count === 0) return <NoData>No purchases in the last {DASHBOARD_DAYS} days</NoData>;
          return (
            <>
              <Figure value={plural(total.count, 'purchase')} detail={formatINR(rupees(total.amountPaise))} />
              <BarChart
                h={CHART_HEIGHT}
                data={dayPoints(data.days)}
                dataKey="label"
                series={[{ name: 'count', label: 'Purchases', color: 'blue.6' }]}
                xAxisProps={DAY_AXIS}
                yAxisProps={{ allowDecimals: false, width: 40 }}
                gridAxis="x"
              />
            </>
          );
        }}
      </ChartCard>

      <ChartCard title="Orders by status" subtitle="Every order" testId="chart-order-status" query={orders}>
        {(data) => {
          const parts = slices(data.byStatus, ORDER_STATUS_LEGEND);
          if (parts.length === 0) return <NoData>No orders yet</NoData>;
          return <Donut parts={parts} label="orders" />;
        }}
      </ChartCard>

      <ChartCard
        title="Registrations by status"
        subtitle="Every user account, administrators included"
        testId="chart-user-status"
        query={users}
      >
        {(data) => {
          const parts = slices(data.byStatus, USER_STATUS_LEGEND);
          if (parts.length === 0) return <NoData>No registrations yet</NoData>;
          return (
            <Stack gap="sm">
              <Donut parts={parts} label="users" />
              <Text size="sm" c="dimmed" data-testid="users-by-role">
                {USER_ROLES.map((role) => `${role} ${data.byRole[role].toLocaleString('en-IN')}`).join(' · ')}
              </Text>
            </Stack>
          );
        }}
      </ChartCard>
    </SimpleGrid>
  );
}

const plural = (n: number, noun: string) => `${n.toLocaleString('en-IN')} ${n === 1 ? noun : `${noun}s`}`;

/** A chart's card: its loading skeleton, its error with a retry, or the chart. */
function ChartCard<T>({
  title,
  subtitle,
  testId,
  query,
  children,
}: {
  title: string;
  subtitle: string;
  testId: string;
  query: UseQueryResult<T>;
  children: (data: T) => ReactNode;
}) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={title} data-testid={testId}>
      <Title order={2} size="h4">
        {title}
      </Title>
      <Text size="xs" c="dimmed" mb="sm">
        {subtitle}
      </Text>
      {query.isPending ? (
        <Skeleton
          h={CHART_HEIGHT + 40}
          radius="md"
          role="status"
          aria-label={`Loading ${title.toLowerCase()}`}
        />
      ) : query.isError ? (
        <LoadError
          title="Could not load this chart"
          error={query.error}
          fallback="Please try again."
          onRetry={() => void query.refetch()}
          variant="light"
        />
      ) : (
        children(query.data)
      )}
    </Card>
  );
}

function Figure({ value, detail }: { value: string; detail: string }) {
  return (
    <Group gap="xs" align="baseline" mb="sm">
      <Text fw={700} fz="lg">
        {value}
      </Text>
      <Text size="sm" c="dimmed">
        {detail}
      </Text>
    </Group>
  );
}

function NoData({ children }: { children: ReactNode }) {
  return (
    <Box h={CHART_HEIGHT} display="flex" style={{ alignItems: 'center', justifyContent: 'center' }}>
      <Text c="dimmed" size="sm" ta="center" data-testid="chart-empty">
        {children}
      </Text>
    </Box>
  );
}

/** A donut with the total inside and a legend with each count beside it (below it on a phone). */
function Donut({ parts, label }: { parts: Slice[]; label: string }) {
  const total = parts.reduce((sum, p) => sum + p.value, 0);
  const drawn = parts.filter((p) => p.value > 0);
  return (
    <Group justify="center" gap="xl" wrap="wrap">
      <DonutChart
        data={drawn}
        // The separator between segments would cut a lone full ring at three o'clock.
        strokeWidth={drawn.length > 1 ? 1 : 0}
        size={160}
        thickness={24}
        chartLabel={`${total.toLocaleString('en-IN')} ${label}`}
        tooltipDataSource="segment"
        withTooltip
      />
      <Stack gap={6}>
        {parts.map((p) => (
          <Group key={p.name} gap="xs" wrap="nowrap" data-testid={`legend-${p.name.toLowerCase()}`}>
            <ColorSwatch color={`var(--mantine-color-${p.color.replace('.', '-')})`} size={12} />
            <Text size="sm" miw={80}>
              {p.name}
            </Text>
            <Text size="sm" fw={600}>
              {p.value.toLocaleString('en-IN')}
            </Text>
          </Group>
        ))}
      </Stack>
    </Group>
  );
}
