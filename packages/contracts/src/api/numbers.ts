import { z } from 'zod';

/**
 * Bounds of the numbers a client puts in a URL. Ids are int64 in the services but must stay exact
 * numbers in JSON; a page number travels as an int32 in gRPC. Out of range is a 400 with one of
 * these messages, never an encoding failure further in (a 500).
 */
export const NUMBER_LIMITS = {
  idMax: Number.MAX_SAFE_INTEGER,
  /** A million pages of up to 100 products: far past any real catalogue, well inside an int32. */
  pageMax: 1_000_000,
  pageSizeMax: 100,
} as const;

/** A positive whole-number id in a path; `label` names it in the messages ("Product id"). */
export const idParam = (label: string) =>
  z.coerce
    .number({ error: `${label} must be a number` })
    // The range first: zod's int() refuses unsafe integers too, but as "not whole".
    .min(1, `${label} must be positive`)
    .max(NUMBER_LIMITS.idMax, `${label} is too large`)
    .int(`${label} must be a whole number`);

/**
 * The messages of a list's page and page size: the REST schemas below and @qm/platform `validPaging`
 * (a service's own check of a gRPC request) give the same (packages/contracts/test/paging.test.ts).
 */
export const PAGING_MESSAGES = {
  pageWhole: 'Page must be a whole number',
  pageMin: 'Page must be at least 1',
  pageMax: 'Page must be at most 1,000,000',
  pageSizeWhole: 'Page size must be a whole number',
  pageSizeRange: (max: number) => `Page size must be between 1 and ${max}`,
} as const;

/**
 * `page` and `pageSize` of a list's query string, unset: whole numbers, the page from 1 to
 * NUMBER_LIMITS.pageMax, the size from 1 to `pageSizeMax`. Most lists use `pagingQuery`.
 */
export function pagingFields(pageSizeMax: number) {
  const m = PAGING_MESSAGES;
  return {
    page: z.coerce
      .number({ error: m.pageWhole })
      .int(m.pageWhole)
      .min(1, m.pageMin)
      .max(NUMBER_LIMITS.pageMax, m.pageMax),
    pageSize: z.coerce
      .number({ error: m.pageSizeWhole })
      .int(m.pageSizeWhole)
      .min(1, m.pageSizeRange(pageSizeMax))
      .max(pageSizeMax, m.pageSizeRange(pageSizeMax)),
  };
}

/** A list's `page` (default 1) and `pageSize` (default 20, at most `pageSizeMax`), to spread into its query schema. */
export function pagingQuery(pageSizeMax: number) {
  const { page, pageSize } = pagingFields(pageSizeMax);
  return { page: page.default(1), pageSize: pageSize.default(20) };
}
