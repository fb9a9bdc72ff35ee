import { z } from 'zod';

/** REST shapes of spec §7 for products, shared by the gateway (validation, OpenAPI) and the market UI. */
export const PRODUCT_TYPES = ['Weapon', 'Vehicle', 'Equipment', 'Ammunition', 'Other'] as const;
export type ProductTypeName = (typeof PRODUCT_TYPES)[number];

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
});
export type Product = z.infer<typeof ProductSchema>;

export const ProductIdParams = z.object({
  id: z.coerce
    .number({ error: 'Product id must be a number' })
    .int('Product id must be a whole number')
    .positive('Product id must be positive'),
});

export const ListProductsQuery = z.object({
  type: z.enum(PRODUCT_TYPES, { error: `Type must be one of ${PRODUCT_TYPES.join(', ')}` }).optional(),
  q: z.string().trim().max(200, 'Search text must be at most 200 characters').optional(),
  page: z.coerce.number().int().min(1, 'Page must be at least 1').optional(),
  pageSize: z.coerce.number().int().min(1).max(100, 'Page size must be between 1 and 100').optional(),
});
