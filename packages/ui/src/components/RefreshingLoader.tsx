import { Loader } from '@mantine/core';

/**
 * The small spinner beside a list that is fetching again behind the rows it shows. A status, so its
 * name is allowed and read out (a plain spinner may carry no aria-label: aria-prohibited-attr).
 */
export function RefreshingLoader() {
  return <Loader size="xs" role="status" aria-label="Refreshing" />;
}
