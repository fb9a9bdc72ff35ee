import { z } from 'zod';

/** Unset and empty are the same (a chart renders absent secrets as ""). */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

/** The assistant's own environment (CONVENTIONS "Environment variables"), on top of the common service variables. */
export const assistantEnv = {
  /** With a key and/or an OpenAI-compatible base URL the model drafts; without, the built-in generator. */
  OPENAI_API_KEY: optional(z.string().min(1)),
  OPENAI_BASE_URL: optional(z.url('must be a URL such as http://127.0.0.1:11434/v1')),
  OPENAI_MODEL: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(1).default('gpt-4o-mini')),
  /** How long a model answer may take before the built-in generator answers instead. */
  OPENAI_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
};
