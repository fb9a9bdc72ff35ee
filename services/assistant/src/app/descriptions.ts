import { assistantV1 } from '@qm/contracts/grpc';
import type { Logger } from '@qm/platform';
import type { DescriptionModel } from '../adapters/openai';
import { builtinDescription, cleanModelText, type DescriptionInput } from '../domain/description';

const { DescriptionSource } = assistantV1;

export interface Drafted {
  description: string;
  source: assistantV1.DescriptionSource;
}

/**
 * Drafts a description: the configured model when there is one, the built-in generator otherwise,
 * or when the model fails, times out or answers nothing usable (logged, never the user's problem).
 */
export function descriptionWriter(model: DescriptionModel | undefined, log: Logger) {
  return async (input: DescriptionInput): Promise<Drafted> => {
    if (model) {
      const started = Date.now();
      try {
        const text = cleanModelText(await model.describe(input));
        if (text) return { description: text, source: DescriptionSource.DESCRIPTION_SOURCE_MODEL };
        log.warn({ model: model.model }, 'model answered no description; using the built-in generator');
      } catch (err) {
        log.warn(
          { model: model.model, endpoint: model.endpoint, ms: Date.now() - started, error: summary(err) },
          'model request failed; using the built-in generator',
        );
      }
    }
    return { description: builtinDescription(input), source: DescriptionSource.DESCRIPTION_SOURCE_BUILTIN };
  };
}

/** The error without request details (headers carry the API key). */
function summary(err: unknown): { kind?: string; message: string; status?: number } {
  const e = err as { message?: string; status?: number } | undefined;
  return {
    kind: err instanceof Error ? err.constructor.name : typeof err,
    message: e?.message ?? String(err),
    status: e?.status,
  };
}
