import { STREAMS } from '@qm/contracts/events';
import type { ServiceDefinition } from '@qm/platform';
import { z } from 'zod';
import { openAiModel } from './adapters/openai';
import { descriptionWriter } from './descriptions';
import { addAssistantService } from './server';

/** Unset and empty are the same (a chart renders absent secrets as ""). */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

export const assistantEnv = {
  /** With a key and/or an OpenAI-compatible base URL the model drafts; without, the built-in generator. */
  OPENAI_API_KEY: optional(z.string().min(1)),
  OPENAI_BASE_URL: optional(z.url('must be a URL such as http://127.0.0.1:11434/v1')),
  OPENAI_MODEL: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(1).default('gpt-4o-mini')),
  /** How long a model answer may take before the built-in generator answers instead. */
  OPENAI_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
};

/** The AI service (gRPC 50057, database qm_assistant); it begins with the description generator. */
export const assistantService: ServiceDefinition<typeof assistantEnv> = {
  name: 'assistant',
  defaultGrpcPort: 50057,
  streams: STREAMS,
  env: assistantEnv,
  async setup({ config, log, grpc }) {
    const model =
      config.OPENAI_API_KEY || config.OPENAI_BASE_URL
        ? openAiModel({
            apiKey: config.OPENAI_API_KEY,
            baseURL: config.OPENAI_BASE_URL,
            model: config.OPENAI_MODEL,
            timeoutMs: config.OPENAI_TIMEOUT_MS,
          })
        : undefined;
    log.info(
      model ? { model: model.model, endpoint: model.endpoint } : {},
      model
        ? 'descriptions drafted by the configured model'
        : 'no model configured: built-in description generator',
    );
    addAssistantService(grpc, descriptionWriter(model, log));
  },
};
