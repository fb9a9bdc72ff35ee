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
