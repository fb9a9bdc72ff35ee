import { z } from 'zod';
import { parseRupees } from './money';
import { idParam, NUMBER_LIMITS, pagingFields } from './numbers';
import { PRODUCT_TYPES } from './product-types';

// REST shapes of docs/product.md §7 for products, shared by the gateway (validation, OpenAPI) and the market UI.

/**
 * Bounds of a product (docs/product.md §5). The catalog service checks the same bounds with the same messages,
 * so a client that skips this validation gets the same answer from the server.
 */
export const PRODUCT_LIMITS = {
  nameMaxChars: 200,
  descriptionMaxChars: 5000,
  stockMax: 1_000_000,
  /** 99,999,999.99 rupees (decimal 10,2). */
  pricePaiseMax: 9_999_999_999,
} as const;

export const PRODUCT_MESSAGES = {
  nameRequired: 'Product name is required',
  nameTooLong: 'Product name must be at most 200 characters',
  typeInvalid: `Type must be one of ${PRODUCT_TYPES.join(', ')}`,
  priceRequired: 'Price is required',
  priceFormat: 'Price must be a number with at most two decimals, e.g. 1250.00',
  priceRange: 'Price must be between ₹0 and ₹9,99,99,999.99',
  stockInteger: 'Stock must be a whole number',
  stockRange: 'Stock must be between 0 and 1,000,000',
  descriptionText: 'Description must be text',
  descriptionTooLong: 'Description must be at most 5,000 characters',
  nothingToUpdate: 'Nothing to update: send name, description, price or stock',
  notFound: 'Product not found',
  insufficientStock: 'Insufficient stock',
  versionRequired: 'Version is required: the version of the product the change is based on',
  /** 409 when an edit was based on an older version of the product (a concurrent change). */
  changedElsewhere: 'This product was changed by someone else. Reload it and try again.',
} as const;

/** Length in characters (code points), so a name of 200 emoji is 200 characters, not 400. */
export const charCount = (s: string): number => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

/**
 * Why a price is refused, or undefined when it is fine: rupees as a string ("1250.00", "1250.5",
 * "0") or a JSON number whose shortest form has at most two decimals, from 0 to 99,999,999.99.
 * Read by parseRupees, which the gateway's conversion uses too.
 */
export function priceProblem(input: unknown): string | undefined {
  const parsed = parseRupees(input);
  if (parsed.ok) return undefined;
  return {
    missing: PRODUCT_MESSAGES.priceRequired,
    format: PRODUCT_MESSAGES.priceFormat,
    negative: PRODUCT_MESSAGES.priceRange,
    range: PRODUCT_MESSAGES.priceRange,
  }[parsed.reason];
}

const nameField = z
  .string({
    error: (iss) => (iss.input == null ? PRODUCT_MESSAGES.nameRequired : 'Product name must be text'),
  })
  .trim()
  .refine((s) => s.length > 0, PRODUCT_MESSAGES.nameRequired)
  .refine((s) => charCount(s) <= PRODUCT_LIMITS.nameMaxChars, PRODUCT_MESSAGES.nameTooLong)
  // The refinements above, stated in the OpenAPI document (JSON Schema counts code points too).
  .meta({ minLength: 1, maxLength: PRODUCT_LIMITS.nameMaxChars, pattern: '\\S' });

const typeField = z.enum(PRODUCT_TYPES, { error: PRODUCT_MESSAGES.typeInvalid });

const priceField = z
  .union([z.string(), z.number()], {
    error: (iss) => (iss.input == null ? PRODUCT_MESSAGES.priceRequired : PRODUCT_MESSAGES.priceFormat),
  })
  .refine((v) => priceProblem(v) === undefined, { error: (iss) => priceProblem(iss.input) })
  .meta({
    anyOf: [
      { type: 'string', pattern: '^\\s*0*\\d{1,8}(\\.\\d{1,2})?\\s*$' },
      { type: 'number', minimum: 0, maximum: PRODUCT_LIMITS.pricePaiseMax / 100, multipleOf: 0.01 },
    ],
  })
  .describe('Rupees with at most two decimals: "1250.00" (a JSON number such as 1250.5 is accepted too)');

const stockField = z
  .preprocess(
    // Form inputs sometimes hand over "12"; a numeric string means the same number.
    (v) => (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v),
    z.number({ error: PRODUCT_MESSAGES.stockInteger }),
  )
  .refine((n) => Number.isInteger(n), PRODUCT_MESSAGES.stockInteger)
  .refine((n) => n >= 0 && n <= PRODUCT_LIMITS.stockMax, PRODUCT_MESSAGES.stockRange)
  .meta({ type: 'integer', minimum: 0, maximum: PRODUCT_LIMITS.stockMax });

const descriptionField = z
  .string({ error: PRODUCT_MESSAGES.descriptionText })
  .trim()
  .refine((s) => charCount(s) <= PRODUCT_LIMITS.descriptionMaxChars, PRODUCT_MESSAGES.descriptionTooLong)
  .meta({ maxLength: PRODUCT_LIMITS.descriptionMaxChars });

/**
 * POST /api/products. Unknown fields (id, manufacturerId, status, ...) are dropped here and never
 * reach the service. Description defaults to empty and stock to 0, as in the create form.
 */
export const CreateProductBody = z.object({
  name: nameField,
  type: typeField,
  price: priceField,
  description: descriptionField.optional().default(''),
  stock: stockField.optional().default(0),
});
export type CreateProductInput = z.input<typeof CreateProductBody>;

/** The fields of the Edit Product dialog, each optional (the dialog validates its form with this). */
export const ProductEditFields = z.object({
  name: nameField.optional(),
  description: descriptionField.optional(),
  price: priceField.optional(),
  stock: stockField.optional(),
});

/**
 * PATCH /api/products/{id}: the fields that change (at least one) and the product's version they
 * are based on. The change applies only if the product is still at that version, otherwise 409
 * "This product was changed by someone else. Reload it and try again." Fields left out are left
 * alone, so an edit of the price never writes back a stock read before a purchase moved it.
 */
export const UpdateProductBody = ProductEditFields.extend({
  version: z
    .number({ error: PRODUCT_MESSAGES.versionRequired })
    .int(PRODUCT_MESSAGES.versionRequired)
    .positive(PRODUCT_MESSAGES.versionRequired)
    // Stated, so the OpenAPI document says it too (a larger number is no exact JSON number).
    .max(NUMBER_LIMITS.idMax, PRODUCT_MESSAGES.versionRequired)
    .describe('The `version` of the product as read before editing'),
})
  .refine(
    (b) =>
      b.name !== undefined || b.description !== undefined || b.price !== undefined || b.stock !== undefined,
    PRODUCT_MESSAGES.nothingToUpdate,
  )
  .meta({ anyOf: ['name', 'description', 'price', 'stock'].map((f) => ({ required: [f] })) });
export type UpdateProductInput = z.input<typeof UpdateProductBody>;

export const ProductSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  type: z.enum(PRODUCT_TYPES),
  price: z.string().describe('Rupees with two decimals, e.g. "1250.00"'),
  description: z.string(),
  stock: z.number().int(),
  manufacturerId: z.number().int(),
  status: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  version: z
    .number()
    .int()
    .describe('Incremented by every change (edits, purchases); an edit sends the version it was based on'),
});
export type Product = z.infer<typeof ProductSchema>;

export const ProductIdParams = z.object({ id: idParam('Product id') });

const catalogPaging = pagingFields(NUMBER_LIMITS.pageSizeMax);

export const ListProductsQuery = z.object({
  type: z.enum(PRODUCT_TYPES, { error: `Type must be one of ${PRODUCT_TYPES.join(', ')}` }).optional(),
  q: z.string().trim().max(200, 'Search text must be at most 200 characters').optional(),
  // Unset, the catalog picks: a page of 24, or the market's chunks (services/catalog/src/domain/listing.ts).
  page: catalogPaging.page.optional(),
  pageSize: catalogPaging.pageSize.optional(),
});

export const DeletedProductSchema = z.object({ message: z.string() });
