import { checkSend, type SendCheckInput } from '../src/assistant/sendRules';

const NOW = 1_800_000_000_000;
type Message = SendCheckInput['messages'][number];
const user = (content: string, agoMs: number): Message => ({ role: 'user', content, timestamp: NOW - agoMs });
const assistant = (content: string, agoMs: number, isLoading = false): Message => ({
  role: 'assistant',
  content,
  timestamp: NOW - agoMs,
  isLoading,
});
const check = (text: string, messages: Message[] = [], pending = false) =>
  checkSend({ text, now: NOW, pending, messages });

describe('checkSend (docs/product.md §5 "Chat sending")', () => {
  it('sends a message, trimmed', () => {
    expect(check('  Show my orders \n')).toEqual({ ok: true, text: 'Show my orders' });
  });

  it('does not send an empty or whitespace-only message', () => {
    for (const text of ['', ' ', '\n\t  ']) expect(check(text)).toEqual({ ok: false, reason: 'empty' });
  });

  it('is blocked while a request is pending', () => {
    expect(check('hello', [], true)).toEqual({ ok: false, reason: 'busy' });
  });

  it('is blocked while a loading message exists, even with no request pending', () => {
    const messages = [user('hi', 10_000), assistant('Analyzing...', 9_000, true)];
    expect(check('hello', messages)).toEqual({ ok: false, reason: 'busy' });
  });

  it('blocks the same text among the last 3 user messages within 5 s', () => {
    const messages = [user('Check wallet balance', 4_000), assistant('₹1.00', 3_500)];
    expect(check('Check wallet balance', messages)).toEqual({ ok: false, reason: 'duplicate' });
    // The comparison is on the trimmed text.
    expect(check('  Check wallet balance ', messages)).toEqual({ ok: false, reason: 'duplicate' });
  });

  it('sends the same text again after 5 s', () => {
    const messages = [user('Check wallet balance', 5_000), assistant('₹1.00', 4_500)];
    expect(check('Check wallet balance', messages)).toEqual({ ok: true, text: 'Check wallet balance' });
  });

  it('only looks at the last 3 user messages for duplicates', () => {
    const messages = [user('Show my orders', 4_900), user('a', 4_000), user('b', 3_000), user('c', 2_000)];
    expect(check('Show my orders', messages)).toEqual({ ok: true, text: 'Show my orders' });
    expect(check('a', messages)).toEqual({ ok: false, reason: 'duplicate' });
  });

  it('blocks any message less than 1 s after the last user message', () => {
    expect(check('something else', [user('first', 999)])).toEqual({ ok: false, reason: 'tooSoon' });
    expect(check('something else', [user('first', 1_000)])).toEqual({ ok: true, text: 'something else' });
  });

  it('ignores assistant messages for the gap and duplicate rules', () => {
    const messages = [assistant('Show my orders', 100)];
    expect(check('Show my orders', messages)).toEqual({ ok: true, text: 'Show my orders' });
  });

  it('checks in order: empty, busy, duplicate, too soon', () => {
    expect(check(' ', [], true)).toEqual({ ok: false, reason: 'empty' });
    expect(check('x', [user('x', 100)], true)).toEqual({ ok: false, reason: 'busy' });
    expect(check('x', [user('x', 100)])).toEqual({ ok: false, reason: 'duplicate' });
  });
});
