import { Button, Card, Group, Paper, Stack, Table, Text, Tooltip } from '@mantine/core';
import type { QueryView } from '@qm/contracts/rest';
import { exactDate, fromNow } from '@qm/ui';
import { IconEye } from '@tabler/icons-react';
import { QueryStatusBadge } from './QueryStatusBadge';

/**
 * The queries of /admin/queries (spec §2): a table (Name, Email, Subject truncated, Status, Date
 * relative, Action View) from the `sm` breakpoint (the spec's 768 px) up, cards below it.
 */
export function QueryList({ queries, onView }: { queries: QueryView[]; onView: (q: QueryView) => void }) {
  return (
    <>
      <Paper withBorder radius="md" visibleFrom="sm">
        <Table.ScrollContainer minWidth={820}>
          <Table striped highlightOnHover verticalSpacing="sm" aria-label="User queries" layout="fixed">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col" w="18%">
                  Name
                </Table.Th>
                <Table.Th scope="col" w="22%">
                  Email
                </Table.Th>
                <Table.Th scope="col">Subject</Table.Th>
                <Table.Th scope="col" w={120}>
                  Status
                </Table.Th>
                <Table.Th scope="col" w={150}>
                  Date
                </Table.Th>
                <Table.Th scope="col" w={110}>
                  Action
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {queries.map((q) => (
                <Table.Tr key={q.id} data-testid="query-row" data-query-id={q.id}>
                  <Table.Td>
                    <Text size="sm" truncate="end" title={q.fullName}>
                      {q.fullName}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" truncate="end" title={q.email}>
                      {q.email}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" truncate="end" title={q.subject}>
                      {q.subject}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <QueryStatusBadge status={q.status} />
                  </Table.Td>
                  <Table.Td>
                    <QueryDate iso={q.createdAt} />
                  </Table.Td>
                  <Table.Td>
                    <ViewButton query={q} onView={onView} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
      <Stack gap="sm" hiddenFrom="sm">
        {queries.map((q) => (
          <Card key={q.id} withBorder radius="md" padding="md" component="article" data-testid="query-card">
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
        ))}
      </Stack>
    </>
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
  return (
    <Tooltip label={exactDate(iso)} withArrow>
      <Text component="time" dateTime={iso} size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        {fromNow(iso)}
      </Text>
    </Tooltip>
  );
}
