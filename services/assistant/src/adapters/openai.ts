import OpenAI from 'openai';
import { type DescriptionInput, modelPrompt } from '../domain/description';

export interface ModelConfig {
  apiKey?: string;
  baseURL?: string;
  model: string;
  timeoutMs: number;
}

/** An OpenAI (or OpenAI-compatible: vLLM, Ollama, LocalAI, ...) chat-completions model. */
export interface DescriptionModel {
  readonly model: string;
  readonly endpoint: string;
  describe(input: DescriptionInput): Promise<string>;
}

export function openAiModel(cfg: ModelConfig): DescriptionModel {
  const endpoint = cfg.baseURL ?? 'https://api.openai.com/v1';
  const client = new OpenAI({
    // A local OpenAI-compatible server usually needs no key, but the client insists on one.
    apiKey: cfg.apiKey ?? 'not-needed',
    baseURL: endpoint,
    timeout: cfg.timeoutMs,
    // One attempt: the caller waits, and the built-in generator is the fallback.
    maxRetries: 0,
  });
  return {
    model: cfg.model,
    endpoint,
    async describe(input) {
      const prompt = modelPrompt(input);
      const res = await client.chat.completions.create({
        model: cfg.model,
        messages: [
          { role: 'system', content: prompt.system },
          { role: 'user', content: prompt.user },
        ],
        temperature: 0.7,
        max_tokens: 400,
      });
      return res.choices[0]?.message?.content ?? '';
    },
  };
}
