import type { ServiceDefinition } from '@qm/platform';
import { serviceDefaults } from '@qm/roster';
import { grpcChatTools } from './adapters/grpc-tools';
import { openAiModel } from './adapters/openai';
import { createChat } from './app/chat';
import { descriptionWriter } from './app/descriptions';
import { assistantEnv } from './config';
import { intentClassifier } from './domain/classifier';
import { assistantConsumers } from './events/consumers';
import { addAssistantService } from './server';
import { createChatStore } from './store/chats';

export { assistantEnv } from './config';

/** The AI service (port and database: @qm/roster): the description generator and the chat assistant. */
export const assistantService: ServiceDefinition<typeof assistantEnv> = {
  ...serviceDefaults('assistant'),
  env: assistantEnv,
  async setup({ config, log, conn, grpc }) {
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
        ? 'descriptions and chat answered by the configured model'
        : 'no model configured: built-in description generator and chat engine',
    );
    const tools = grpcChatTools({
      identity: config.IDENTITY_GRPC_ADDR,
      catalog: config.CATALOG_GRPC_ADDR,
      wallet: config.WALLET_GRPC_ADDR,
      orders: config.ORDERS_GRPC_ADDR,
      support: config.SUPPORT_GRPC_ADDR,
      activity: config.ACTIVITY_GRPC_ADDR,
      deadlineMs: config.CHAT_TOOL_DEADLINE_MS,
      token: config.INTERNAL_TOKEN,
    });
    const chat = createChat({
      store: createChatStore(conn),
      tools: tools.tools,
      model,
      log,
      maxRounds: config.CHAT_MODEL_MAX_ROUNDS,
    });
    // The built-in engine's classifier learns its examples now, not on the first question (docs/adr/023).
    const started = Date.now();
    await intentClassifier();
    log.info({ ms: Date.now() - started }, 'chat intent classifier trained');
    addAssistantService(grpc, { write: descriptionWriter(model, log), chat });
    return { ...assistantConsumers, stop: async () => tools.close() };
  },
};
