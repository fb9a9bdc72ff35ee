/**
 * The types a product may have (docs/product.md §5), apart from the schemas: /market lists them on its
 * first screen, which then needs no zod (`@qm/contracts/rules`).
 */
export const PRODUCT_TYPES = ['Weapon', 'Vehicle', 'Equipment', 'Ammunition', 'Other'] as const;
export type ProductTypeName = (typeof PRODUCT_TYPES)[number];
