import type { ServiceDefinition } from '@qm/platform';
import { serviceDefaults } from '@qm/roster';
import { openAiModel } from './adapters/openai';
import { descriptionWriter } from './app/descriptions';
import { assistantEnv } from './config';
import { assistantConsumers } from './events/consumers';
import { addAssistantService } from './server';

export { assistantEnv } from './config';

/** The AI service (port and database: @qm/roster); it begins with the description generator. */
export const assistantService: ServiceDefinition<typeof assistantEnv> = {
  ...serviceDefaults('assistant'),
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
    return assistantConsumers;
  },
};
