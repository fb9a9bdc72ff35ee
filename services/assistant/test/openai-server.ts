import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the assistant sent to the chat-completions endpoint. */
export interface Seen {
  path: string;
  authorization?: string;
  body: {
    model: string;
    messages: { role: string; content?: string | null; tool_call_id?: string }[];
    tools?: { function: { name: string } }[];
  };
}

/** How the server answers one request: an error status, a (late) text, or tool calls. */
export interface Scripted {
  status: number;
  delayMs?: number;
  content?: string;
  toolCalls?: [name: string, args: object][];
}

/**
 * A local server speaking the OpenAI chat-completions protocol, answering as the test scripts it
 * (no model is reachable from here; the `openai` package talks to this like to any compatible server).
 */
export async function openAiServer(script: (seen: Seen) => Scripted) {
  const seen: Seen[] = [];
  const read = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let data = '';
      req.on('data', (c) => (data += c));
      req.on('end', () => resolve(data));
    });
  const server: Server = createServer(async (req, res) => {
    const s: Seen = {
      path: req.url ?? '',
      authorization: req.headers.authorization,
      body: JSON.parse(await read(req)),
    };
    seen.push(s);
    const a = script(s);
    if (a.delayMs) await new Promise((r) => setTimeout(r, a.delayMs).unref());
    if (res.destroyed) return;
    res.writeHead(a.status, { 'content-type': 'application/json' });
    if (a.status !== 200) {
      res.end(JSON.stringify({ error: { message: 'model overloaded', type: 'server_error' } }));
      return;
    }
    const tool_calls = a.toolCalls?.map(([name, args], i) => ({
      id: `call_${seen.length}_${i}`,
      type: 'function',
      function: { name, arguments: JSON.stringify(args) },
    }));
    res.end(
      JSON.stringify({
        id: 'chatcmpl-test',
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: s.body.model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: a.content ?? null, ...(tool_calls ? { tool_calls } : {}) },
            finish_reason: tool_calls ? 'tool_calls' : 'stop',
          },
        ],
        usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
      }),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    seen,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(r));
    },
  };
}
