import { GenerateDescriptionBody, GeneratedDescriptionSchema } from '@qm/contracts/rest';
import type { GatewayDeps } from '../deps';
import type { Api } from '../http/api';
import { limit } from '../http/rate-limit';

/** A model answer may take the assistant's OPENAI_TIMEOUT_MS (15 s) before it falls back; wait past that. */
const DESCRIPTION_DEADLINE_MS = 20_000;

/** The AI service's REST area (spec §7 `/api/{ai}/...`; `{ai}` is `ai`). */
export function registerAssistantRoutes(api: Api, { clients }: GatewayDeps): void {
  api.route({
    method: 'post',
    path: '/api/ai/generate-description',
    tag: 'AI',
    summary:
      'Draft a product description from name, category (the product type) and features. Empty features ' +
      'stand for "military-grade performance, advanced capabilities"; no name or type: "Missing information".',
    access: 'user',
    before: [
      limit({
        windowMs: 60_000,
        limit: 30,
        message: 'Too many description requests. Please wait a minute and try again.',
      }),
    ],
    body: GenerateDescriptionBody,
    response: GeneratedDescriptionSchema,
    async handler({ body }) {
      const out = await clients.assistant.generateDescription(
        { name: body.name, category: body.category, features: body.features },
        { deadlineMs: DESCRIPTION_DEADLINE_MS },
      );
      return { description: out.description };
    },
  });
}
