import { invalid } from './errors';

/** A 1-based page of a list and its size. */
export interface Paging {
  page: number;
  pageSize: number;
}

/** The highest page a list call takes (as the REST schemas do: NUMBER_LIMITS.pageMax). */
export const PAGE_MAX = 1_000_000;

/**
 * A list call's page and page size as a service checks them at its edge (the gateway's schemas check
 * the same for REST callers): 0 or missing means the first page and `defaultSize`; anything else is a
 * whole number in range or an INVALID_ARGUMENT with the message the REST schemas give.
 */
export function validPaging(req: Partial<Paging>, maxSize: number, defaultSize = 20): Paging {
  const page = req.page || 1;
  const pageSize = req.pageSize || defaultSize;
  if (!Number.isSafeInteger(page) || page < 1) throw invalid('Page must be at least 1');
  if (page > PAGE_MAX) throw invalid('Page must be at most 1,000,000');
  if (!Number.isSafeInteger(pageSize) || pageSize < 1 || pageSize > maxSize)
    throw invalid(`Page size must be between 1 and ${maxSize}`);
  return { page, pageSize };
}
