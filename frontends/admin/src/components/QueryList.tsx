import { Button, Card, Group, Stack, Text } from '@mantine/core';
import type { QueryView } from '@qm/contracts/rest';
import { RelativeTime, ResponsiveTable, type ResponsiveColumn } from '@qm/ui';
import { IconEye } from '@tabler/icons-react';
import { QueryStatusBadge } from './QueryStatusBadge';

/**
 * The queries of /admin/queries (docs/product.md §2): a table (Name, Email, Subject truncated, Status, Date
 * relative, Action View) from the `sm` breakpoint (the product reference's 768 px) up, cards below it.
 */
export function QueryList({ queries, onView }: { queries: QueryView[]; onView: (q: QueryView) => void }) {
  return (
    <ResponsiveTable
      rows={queries}
      columns={queryColumns(onView)}
      rowKey={(q) => q.id}
      label="User queries"
      minWidth={820}
      layout="fixed"
      rowAttributes={(q) => ({ 'data-testid': 'query-row', 'data-query-id': q.id })}
      card={(q) => <QueryCard query={q} onView={onView} />}
    />
  );
}

const truncated = (text: string) => (
  <Text size="sm" truncate="end" title={text}>
    {text}
  </Text>
);

function queryColumns(onView: (q: QueryView) => void): ResponsiveColumn<QueryView>[] {
  return [
    { header: 'Name', cell: (q) => truncated(q.fullName), width: '18%' },
    { header: 'Email', cell: (q) => truncated(q.email), width: '22%' },
    { header: 'Subject', cell: (q) => truncated(q.subject) },
    { header: 'Status', cell: (q) => <QueryStatusBadge status={q.status} />, width: 120 },
    { header: 'Date', cell: (q) => <QueryDate iso={q.createdAt} />, width: 150 },
    { header: 'Action', cell: (q) => <ViewButton query={q} onView={onView} />, width: 110 },
  ];
}

function QueryCard({ query: q, onView }: { query: QueryView; onView: (q: QueryView) => void }) {
  return (
    <Card withBorder radius="md" padding="md" component="article" data-testid="query-card">
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text fw={600} truncate="end">
            {q.fullName}
          </Text>
          <QueryStatusBadge status={q.status} />
        </Group>
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {q.email}
        </Text>
        <Text size="sm" truncate="end" title={q.subject}>
          {q.subject}
        </Text>
        <Group justify="space-between" wrap="nowrap">
          <QueryDate iso={q.createdAt} />
          <ViewButton query={q} onView={onView} />
        </Group>
      </Stack>
    </Card>
  );
}

function ViewButton({ query, onView }: { query: QueryView; onView: (q: QueryView) => void }) {
  return (
    <Button
      size="xs"
      variant="light"
      leftSection={<IconEye size={14} />}
      onClick={() => onView(query)}
      aria-label={`View query from ${query.fullName}: ${query.subject}`}
    >
      View
    </Button>
  );
}

/** Relative ("3 minutes ago"), the exact moment on hover. */
export function QueryDate({ iso }: { iso: string }) {
  return <RelativeTime iso={iso} c="dimmed" />;
}
