import { Badge } from '@mantine/core';
import type { QueryStatusName } from '@qm/contracts/rest';
import { QUERY_STATUS_LOOK } from '../queries';

/** docs/product.md §4 query status: Pending, In Progress, Resolved. */
export function QueryStatusBadge({ status }: { status: QueryStatusName }) {
  const look = QUERY_STATUS_LOOK[status];
  return (
    <Badge
      variant="light"
      color={look.color}
      data-status={status}
      styles={{ label: { overflow: 'visible' } }}
    >
      {look.label}
    </Badge>
  );
}
