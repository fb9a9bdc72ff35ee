import OpenAI from 'openai';
import { type DescriptionInput, modelPrompt } from '../domain/description';

export interface ModelConfig {
  apiKey?: string;
  baseURL?: string;
  model: string;
  timeoutMs: number;
}

/** One tool a model may call: its name, what it does and its arguments as JSON Schema. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export type ModelMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

export interface ModelTurn {
  /** The assistant message as the model sent it (appended to the conversation for the next round). */
  message: ModelMessage;
  content: string;
  toolCalls: { id: string; name: string; arguments: string }[];
}

/** An OpenAI (or OpenAI-compatible: vLLM, Ollama, LocalAI, ...) chat-completions model. */
export interface DescriptionModel {
  readonly model: string;
  readonly endpoint: string;
  describe(input: DescriptionInput): Promise<string>;
  /** One round of a conversation in which the model may call `tools`. */
  converse(messages: ModelMessage[], tools: ToolSpec[], signal?: AbortSignal): Promise<ModelTurn>;
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
    async converse(messages, tools, signal) {
      const res = await client.chat.completions.create(
        {
          model: cfg.model,
          messages,
          tools: tools.map((t) => ({ type: 'function' as const, function: t })),
          temperature: 0.2,
          max_tokens: 600,
        },
        { signal },
      );
      const message = res.choices[0]?.message;
      if (!message) throw new Error('the model answered no choice');
      const toolCalls = (message.tool_calls ?? []).flatMap((c) =>
        c.type === 'function' ? [{ id: c.id, name: c.function.name, arguments: c.function.arguments }] : [],
      );
      return {
        message: { role: 'assistant', content: message.content ?? '', tool_calls: message.tool_calls },
        content: message.content ?? '',
        toolCalls,
      };
    },
  };
}
