import { z } from 'zod';

/** Unset and empty are the same (a chart renders absent secrets as ""). */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

/** The services the chat's tools read, always as the caller (never with a service identity). */
export const chatToolsEnv = {
  IDENTITY_GRPC_ADDR: z.string().min(1).default('127.0.0.1:50051'),
  CATALOG_GRPC_ADDR: z.string().min(1).default('127.0.0.1:50052'),
  WALLET_GRPC_ADDR: z.string().min(1).default('127.0.0.1:50053'),
  ORDERS_GRPC_ADDR: z.string().min(1).default('127.0.0.1:50054'),
  SUPPORT_GRPC_ADDR: z.string().min(1).default('127.0.0.1:50055'),
  ACTIVITY_GRPC_ADDR: z.string().min(1).default('127.0.0.1:50056'),
  /** Deadline of each tool call. */
  CHAT_TOOL_DEADLINE_MS: z.coerce.number().int().min(100).max(60_000).default(4000),
  /** Tool-calling rounds a model may take for one answer before the built-in engine answers. */
  CHAT_MODEL_MAX_ROUNDS: z.coerce.number().int().min(1).max(10).default(4),
};

/** The assistant's own environment (CONVENTIONS "Environment variables"), on top of the common service variables. */
export const assistantEnv = {
  /** With a key and/or an OpenAI-compatible base URL the model drafts; without, the built-in generator. */
  OPENAI_API_KEY: optional(z.string().min(1)),
  OPENAI_BASE_URL: optional(z.url('must be a URL such as http://127.0.0.1:11434/v1')),
  OPENAI_MODEL: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(1).default('gpt-4o-mini')),
  /** How long a model answer may take before the built-in generator answers instead. */
  OPENAI_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  ...chatToolsEnv,
};
