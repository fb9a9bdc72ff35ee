import { Group, Select } from '@mantine/core';
import { REFUND_STATUSES } from '@qm/contracts/rest';
import { EmptyState, PageHeader } from '@qm/ui';
import { IconReceiptRefund } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ListPager } from '../components/ListPager';
import { ListSearch } from '../components/ListSearch';
import { QueryPage } from '../components/QueryPage';
import { ApproveRefundDialog, RejectRefundDialog } from '../components/RefundDecisionDialogs';
import { RefundList, type RefundOrder } from '../components/RefundList';
import { useListParams } from '../listParams';
import { ADMIN_REFUNDS_PAGE_SIZE, adminRefundsQuery, REFUND_FILTERS } from '../refunds';

const oneOf = <T extends string>(values: readonly T[], value: string): T | undefined =>
  (values as readonly string[]).includes(value) ? (value as T) : undefined;

/**
 * /admin/refunds (docs/adr/028): the buyers' refund requests, open ones first, with a status filter and a
 * search by buyer or seller username (server-side, in the URL with the page); an open request is
 * approved after a confirmation or rejected with a reason.
 */
export function RefundsPage() {
  const list = useListParams<'search' | 'status'>();
  const filters = { search: list.get('search'), status: oneOf(REFUND_STATUSES, list.get('status')) };
  const page = list.page;
  const refunds = useQuery(
    adminRefundsQuery({
      page,
      pageSize: ADMIN_REFUNDS_PAGE_SIZE,
      ...filters,
      search: filters.search || undefined,
    }),
  );
  const [approving, setApproving] = useState<RefundOrder | null>(null);
  const [rejecting, setRejecting] = useState<RefundOrder | null>(null);
  const params = { search: filters.search, status: filters.status ?? '' };

  const header = (
    <>
      <PageHeader title="Refunds" subtitle="Review buyers' refund requests and approve or reject them." />
      <Group mb="md" gap="sm" align="flex-end">
        <ListSearch
          label="Search refunds by buyer or seller username"
          placeholder="Search by buyer or seller username..."
          value={filters.search}
          onSearch={(search) => list.set({ ...params, search }, { replace: true })}
        />
        <Select
          aria-label="Filter by status"
          data={REFUND_FILTERS}
          value={filters.status ?? ''}
          onChange={(status) => list.set({ ...params, status: status ?? '' })}
          allowDeselect={false}
          w={{ base: '100%', xs: 170 }}
        />
      </Group>
    </>
  );
  return (
    <QueryPage
      header={header}
      query={refunds}
      loading="Loading refunds..."
      failed={{ title: 'Failed to fetch refunds', fallback: 'The refund requests could not be loaded.' }}
    >
      {(data) => (
        <>
          {data.orders.length === 0 ? (
            <EmptyState icon={<IconReceiptRefund size={26} />} title="No refund requests found" />
          ) : (
            <RefundList
              orders={data.orders as RefundOrder[]}
              onApprove={setApproving}
              onReject={setRejecting}
            />
          )}
          <ListPager
            total={data.total}
            page={page}
            pageSize={ADMIN_REFUNDS_PAGE_SIZE}
            noun={['refund request', 'refund requests']}
            fetching={refunds.isFetching}
            onPage={(next) => list.set({ ...params, page: next })}
          />
          <ApproveRefundDialog order={approving} onClose={() => setApproving(null)} />
          <RejectRefundDialog order={rejecting} onClose={() => setRejecting(null)} />
        </>
      )}
    </QueryPage>
  );
}
