import { Group, Pagination, Text } from '@mantine/core';
import { RefreshingLoader } from '@qm/ui';

/** Under a paged admin list: how many match, a spinner while the next page loads, and the pages. */
export function ListPager({
  total,
  page,
  pageSize,
  noun,
  fetching = false,
  onPage,
}: {
  total: number;
  page: number;
  pageSize: number;
  noun: [one: string, many: string];
  /** A spinner beside the count while the next page loads. */
  fetching?: boolean;
  onPage: (page: number) => void;
}) {
  const totalPages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <Group justify="space-between" mt="md" gap="sm">
      <Group gap="xs">
        <Text size="sm" c="dimmed" data-testid="list-total">
          {total.toLocaleString('en-IN')} {total === 1 ? noun[0] : noun[1]}
        </Text>
        {fetching && <RefreshingLoader />}
      </Group>
      {totalPages > 1 && (
        <Pagination
          total={totalPages}
          value={Math.min(page, totalPages)}
          onChange={onPage}
          getItemProps={(n) => ({ 'aria-label': `Page ${n}` })}
          siblings={1}
          boundaries={1}
        />
      )}
    </Group>
  );
}
