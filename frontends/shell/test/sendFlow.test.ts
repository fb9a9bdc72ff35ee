import { ApiError } from '@qm/ui';
import { assistantMessage, userMessage } from '../src/assistant/messages';
import { applyOutcome, deliver, type SendCalls } from '../src/assistant/sendFlow';
import { ASSISTANT_TEXTS } from '../src/assistant/texts';

const REPLY = {
  response: 'You have 1 order:\n• #7 Field Radio',
  sessionId: 3,
  messageId: 12,
  userMessageId: 11,
  intent: 'orders',
  actionTaken: null,
};
const CONTEXT = [{ role: 'user' as const, content: 'hello' }];

function calls(send: SendCalls['send'], fallback: SendCalls['fallback'] = jest.fn()) {
  return { send: jest.fn(send), fallback: jest.fn(fallback) };
}
const fail = (error: unknown) => () => Promise.reject(error);

describe('deliver (docs/product.md §7 fallback, §8 errors)', () => {
  it('answers the reply of the chat call, without the fallback', async () => {
    const api = calls(() => Promise.resolve(REPLY));
    await expect(deliver(api, 'Show my orders', 3, CONTEXT)).resolves.toEqual({
      kind: 'reply',
      reply: REPLY,
    });
    expect(api.send).toHaveBeenCalledWith('Show my orders', 3);
    expect(api.fallback).not.toHaveBeenCalled();
  });

  it('starts a new session when the one it had is gone (404), once', async () => {
    const api = calls((_message, sessionId) =>
      sessionId === 9
        ? Promise.reject(new ApiError(404, '{"message":"Chat session not found"}'))
        : Promise.resolve(REPLY),
    );
    await expect(deliver(api, 'hi', 9, [])).resolves.toEqual({ kind: 'reply', reply: REPLY });
    expect(api.send.mock.calls).toEqual([
      ['hi', 9],
      ['hi', null],
    ]);
    expect(api.fallback).not.toHaveBeenCalled();
  });

  it("shows the server's message of a 400 or 429 as the answer, without the fallback", async () => {
    const tooLong = calls(fail(new ApiError(400, '{"message":"Message must be at most 1000 characters"}')));
    await expect(deliver(tooLong, 'x', null, [])).resolves.toEqual({
      kind: 'refused',
      message: 'Message must be at most 1000 characters',
    });
    const limited = calls(fail(new ApiError(429, 'Too Many Requests')));
    await expect(deliver(limited, 'x', null, [])).resolves.toEqual({
      kind: 'refused',
      message: 'Too many messages. Please wait a minute and try again.',
    });
    expect(tooLong.fallback).not.toHaveBeenCalled();
    expect(limited.fallback).not.toHaveBeenCalled();
  });

  it('asks the fallback with the conversation when the chat call fails, and shows its answer', async () => {
    const api = calls(fail(new ApiError(503, 'unavailable')), () =>
      Promise.resolve({ response: 'Your balance is ₹99,000.00' }),
    );
    await expect(deliver(api, 'Check wallet balance', null, CONTEXT)).resolves.toEqual({
      kind: 'fallback',
      response: 'Your balance is ₹99,000.00',
    });
    expect(api.fallback).toHaveBeenCalledWith('Check wallet balance', CONTEXT);
  });

  it('a chat call error with the fallback failing too: the "Sorry, ..." text', async () => {
    const api = calls(fail(new ApiError(500, 'boom')), fail(new ApiError(500, 'boom')));
    await expect(deliver(api, 'x', null, [])).resolves.toEqual({
      kind: 'failed',
      text: "Sorry, I'm having trouble connecting right now. Please try again later.",
    });
  });

  it('a send failure (no answer) with the fallback failing too: the "trouble connecting" text', async () => {
    const api = calls(fail(new TypeError('Failed to fetch')), fail(new TypeError('Failed to fetch')));
    await expect(deliver(api, 'x', null, [])).resolves.toEqual({
      kind: 'failed',
      text: "I'm having trouble connecting to the AI service. Please try again.",
    });
    expect(ASSISTANT_TEXTS.sendFailureNoLoading).toBe(
      'I encountered an error while processing your request. Please try again.',
    );
  });
});

describe('applyOutcome', () => {
  const question = userMessage('Show my orders', 1);
  const loading = assistantMessage('Analyzing your query and gathering relevant data...', 1, true);
  const keys = { loadingKey: loading.key, userKey: question.key };

  it("replaces the loading message with the reply and keeps the server's ids", () => {
    const next = applyOutcome([question, loading], keys, { kind: 'reply', reply: REPLY }, 50);
    expect(next).toHaveLength(2);
    expect(next[0]).toMatchObject({ content: 'Show my orders', sessionId: 3, userMessageId: 11 });
    expect(next[1]).toMatchObject({
      key: loading.key,
      role: 'assistant',
      content: REPLY.response,
      isLoading: false,
      messageId: 12,
      timestamp: 50,
    });
  });

  it('replaces the loading message with the failure text', () => {
    const next = applyOutcome(
      [question, loading],
      keys,
      { kind: 'failed', text: ASSISTANT_TEXTS.sendFailure },
      50,
    );
    expect(next.map((m) => m.content)).toEqual(['Show my orders', ASSISTANT_TEXTS.sendFailure]);
  });

  it('adds "I encountered an error..." when a failure finds no loading message', () => {
    const next = applyOutcome([question], keys, { kind: 'failed', text: ASSISTANT_TEXTS.sendFailure }, 50);
    expect(next.map((m) => m.content)).toEqual(['Show my orders', ASSISTANT_TEXTS.sendFailureNoLoading]);
  });
});
