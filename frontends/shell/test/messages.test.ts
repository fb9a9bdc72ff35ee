import {
  assistantMessage,
  contextMessages,
  markSent,
  settleLoading,
  userMessage,
  visibleHistory,
} from '../src/assistant/messages';

describe('panel messages', () => {
  it('settles the loading message in place', () => {
    const question = userMessage('Show my orders', 1);
    const loading = assistantMessage('Analyzing your query and gathering relevant data...', 1, true);
    const { messages, found } = settleLoading([question, loading], loading.key, {
      content: 'Order #7',
      messageId: 9,
    });
    expect(found).toBe(true);
    expect(messages[1]).toMatchObject({
      key: loading.key,
      content: 'Order #7',
      messageId: 9,
      isLoading: false,
    });
    expect(messages[0]).toBe(question);
  });

  it('reports a loading message that is gone', () => {
    const { messages, found } = settleLoading([userMessage('hi', 1)], 'nope', { content: 'x' });
    expect(found).toBe(false);
    expect(messages).toHaveLength(1);
  });

  it("puts the server's ids on the user message", () => {
    const question = userMessage('hi', 1);
    expect(markSent([question], question.key, { sessionId: 2, userMessageId: 5 })[0]).toMatchObject({
      content: 'hi',
      sessionId: 2,
      userMessageId: 5,
    });
  });

  it('gives the fallback the last 6 settled messages, oldest first', () => {
    const messages = Array.from({ length: 8 }, (_, i) =>
      i % 2 ? assistantMessage(`a${i}`, i) : userMessage(`u${i}`, i),
    );
    messages.push(assistantMessage('loading', 9, true));
    expect(contextMessages(messages)).toEqual([
      { role: 'user', content: 'u2' },
      { role: 'assistant', content: 'a3' },
      { role: 'user', content: 'u4' },
      { role: 'assistant', content: 'a5' },
      { role: 'user', content: 'u6' },
      { role: 'assistant', content: 'a7' },
    ]);
  });

  it('restores history without system messages', () => {
    const view = (id: number, role: 'user' | 'assistant' | 'system') => ({
      id,
      sessionId: 4,
      role,
      content: `${role} ${id}`,
      intent: null,
      createdAt: '2026-11-23T10:00:00.000Z',
    });
    const restored = visibleHistory([view(1, 'system'), view(2, 'user'), view(3, 'assistant')]);
    expect(restored.map((m) => m.content)).toEqual(['user 2', 'assistant 3']);
    expect(restored[0]).toMatchObject({
      key: 'h2',
      sessionId: 4,
      messageId: 2,
      timestamp: Date.parse('2026-11-23T10:00:00.000Z'),
    });
  });
});
