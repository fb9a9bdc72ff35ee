import { Group, Pagination, Select, SimpleGrid } from '@mantine/core';
import type { AdminQueriesPage, QueryFilterName, QueryView } from '@qm/contracts/rest';
import { EmptyState, PageHeader, RefreshingLoader } from '@qm/ui';
import {
  IconCircleCheck,
  IconClock,
  IconInbox,
  IconMessageQuestion,
  IconProgress,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { QueryDetailsDialog } from '../components/QueryDetailsDialog';
import { QueryList } from '../components/QueryList';
import { QueryPage } from '../components/QueryPage';
import { SummaryCard } from '../components/SummaryCard';
import { ADMIN_QUERIES_PAGE_SIZE, adminQueriesQuery, QUERY_FILTERS } from '../queries';

const count = (n: number) => n.toLocaleString('en-IN');

/** /admin/queries (docs/product.md §2): the four count cards, the status filter, the queries and their dialog. */
export function QueriesPage() {
  const [status, setStatus] = useState<QueryFilterName>('all');
  const [page, setPage] = useState(1);
  const [viewing, setViewing] = useState<QueryView | null>(null);
  const queries = useQuery(adminQueriesQuery({ page, pageSize: ADMIN_QUERIES_PAGE_SIZE, status }));

  const header = <PageHeader title="User Queries" subtitle="Questions sent through the contact form." />;
  return (
    <QueryPage
      header={header}
      query={queries}
      loading="Loading queries..."
      failed={{ title: 'Failed to fetch queries', fallback: 'The queries could not be loaded.' }}
    >
      {(data) => {
        const totalPages = Math.max(1, Math.ceil(data.total / ADMIN_QUERIES_PAGE_SIZE));
        return (
          <>
            <QueryCounts data={data} />
            <Group justify="space-between" align="flex-end" mb="md">
              <Select
                label="Status"
                data={QUERY_FILTERS}
                value={status}
                onChange={(value) => {
                  setStatus((value as QueryFilterName | null) ?? 'all');
                  setPage(1);
                }}
                allowDeselect={false}
                w={{ base: '100%', xs: 220 }}
              />
              {queries.isFetching && <RefreshingLoader />}
            </Group>
            {data.queries.length === 0 ? (
              <EmptyState
                icon={<IconInbox size={26} />}
                title="No queries found"
                description={
                  status === 'all'
                    ? 'There are no user queries at this time'
                    : `There are no ${status} queries available`
                }
              />
            ) : (
              <QueryList queries={data.queries} onView={setViewing} />
            )}
            {totalPages > 1 && (
              <Group justify="flex-end" mt="md">
                <Pagination
                  total={totalPages}
                  value={Math.min(page, totalPages)}
                  onChange={setPage}
                  getItemProps={(n) => ({ 'aria-label': `Page ${n}` })}
                  siblings={1}
                  boundaries={1}
                />
              </Group>
            )}
            <QueryDetailsDialog query={viewing} onClose={() => setViewing(null)} />
          </>
        );
      }}
    </QueryPage>
  );
}

function QueryCounts({ data }: { data: AdminQueriesPage }) {
  return (
    <SimpleGrid cols={{ base: 2, md: 4 }} mb="lg">
      <SummaryCard label="Total Queries" value={count(data.allCount)} icon={IconMessageQuestion} />
      <SummaryCard label="Pending" value={count(data.pendingCount)} icon={IconClock} color="yellow" />
      <SummaryCard label="In Progress" value={count(data.inProgressCount)} icon={IconProgress} color="blue" />
      <SummaryCard label="Resolved" value={count(data.resolvedCount)} icon={IconCircleCheck} color="green" />
    </SimpleGrid>
  );
}
