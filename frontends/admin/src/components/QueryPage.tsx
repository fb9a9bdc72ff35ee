import { LoadError, PageLoader } from '@qm/ui';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';

/**
 * An administrator's page built on one query: its header, then a loader while the query runs, the
 * failure with a retry, or the page made from the data.
 */
export function QueryPage<T>({
  header,
  query,
  loading,
  failed,
  children,
}: {
  header: ReactNode;
  query: UseQueryResult<T>;
  /** What is loading ("Loading orders..."). */
  loading: string;
  /** The failure's title, and its text when the error has none of its own. */
  failed: { title: string; fallback: string };
  children: (data: T) => ReactNode;
}) {
  return (
    <>
      {header}
      {query.isPending ? (
        <PageLoader message={loading} />
      ) : query.isError ? (
        <LoadError
          title={failed.title}
          error={query.error}
          fallback={failed.fallback}
          onRetry={() => void query.refetch()}
        />
      ) : (
        children(query.data)
      )}
    </>
  );
}
