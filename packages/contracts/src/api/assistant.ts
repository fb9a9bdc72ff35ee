import { z } from 'zod';

/** REST shapes of the AI service (docs/product.md §7 /api/ai/...), shared by the gateway and the frontends. */

/** docs/product.md §5: generating a description needs a product name and type. */
export const MISSING_INFORMATION = 'Missing information';

/** docs/product.md §7: what an empty features field stands for. */
export const DEFAULT_FEATURES = 'military-grade performance, advanced capabilities';

export const DESCRIPTION_LIMITS = {
  nameMaxChars: 200,
  categoryMaxChars: 50,
  featuresMaxChars: 2000,
} as const;

const required = (tooLong: string, max: number) =>
  z.string({ error: MISSING_INFORMATION }).trim().min(1, MISSING_INFORMATION).max(max, tooLong);

/** POST /api/ai/generate-description: name, category (the product type) and features. */
export const GenerateDescriptionBody = z.object({
  name: required('Product name must be at most 200 characters', DESCRIPTION_LIMITS.nameMaxChars),
  category: required('Category must be at most 50 characters', DESCRIPTION_LIMITS.categoryMaxChars),
  features: z
    .union([z.string(), z.array(z.string())], { error: 'Features must be text' })
    .transform((f) => (Array.isArray(f) ? f.join(', ') : f).trim())
    .refine(
      (f) => f.length <= DESCRIPTION_LIMITS.featuresMaxChars,
      'Features must be at most 2,000 characters',
    )
    .optional()
    .default(''),
});
export type GenerateDescriptionInput = z.input<typeof GenerateDescriptionBody>;

export const GeneratedDescriptionSchema = z.object({ description: z.string() });
export type GeneratedDescription = z.infer<typeof GeneratedDescriptionSchema>;
