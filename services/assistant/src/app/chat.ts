import type { assistantV1 } from '@qm/contracts/grpc';
import { CHAT_LIMITS, CHAT_MESSAGES } from '@qm/contracts/rest';
import { type Caller, GrpcStatus, isServiceError, type Logger, notFound, signedInCaller } from '@qm/platform';
import type { DescriptionModel } from '../adapters/openai';
import { productInterests, renameRequest, validQuestion } from '../domain/chat-rules';
import { othersData } from '../domain/answers';
import type { ActivityFact, ChatTools, UserFact } from '../domain/facts';
import { declinedByRules } from '../domain/intents';
import type { ChatStore, StoredMessage } from '../store/chats';
import { type Answer, builtinAnswer, lazyUser } from './builtin-engine';
import { modelAnswer } from './model-engine';

export interface ChatDeps {
  store: ChatStore;
  /** The caller's tools (they act as the caller of the current request context). */
  tools: ChatTools;
  model?: DescriptionModel;
  log: Logger;
  maxRounds: number;
}

type Turn = { role: 'user' | 'assistant'; content: string };

/** A service the tools need is down or slow: say so in the chat instead of failing the call. */
const UNAVAILABLE = "I couldn't reach the records I need right now. Please try again in a moment.";
const isOutage = (err: unknown) =>
  isServiceError(err) && [GrpcStatus.UNAVAILABLE, GrpcStatus.DEADLINE_EXCEEDED].includes(err.code);
/** The owning service refused the caller (an administrator has no wallet): its words are the answer. */
const isRefusal = (err: unknown) => isServiceError(err) && err.code === GrpcStatus.PERMISSION_DENIED;
/** What a refused read leaves: nothing of the caller's (used for the context, which is best effort). */
const orNothing =
  <T>(fallback: T) =>
  (err: unknown) => {
    if (isRefusal(err)) return fallback;
    throw err;
  };

/**
 * The chat assistant's use cases: answer and store a message, read and clear the history, the
 * caller's context, and the stateless fallback answer. The model answers when one is configured;
 * on any failure of it the built-in engine does, marked "<intent>_fallback".
 */
export interface Chat {
  /**
   * Answers a message in the caller's session (`sessionId` 0, or one they cleared: a new one) and
   * stores both. "Rename this chat to …" renames the session instead of asking an engine.
   */
  send(
    caller: Caller | undefined,
    req: assistantV1.SendChatMessageRequest,
  ): Promise<assistantV1.SendChatMessageResponse>;
  /** The caller's active session and its latest messages (session 0 and none without one). */
  history(
    caller: Caller | undefined,
  ): Promise<{ sessionId: number; name: string; messages: StoredMessage[] }>;
  /** Marks every message of the caller deleted and closes their sessions. */
  clear(caller: Caller | undefined): Promise<{ deletedMessages: number }>;
  /** What the assistant knows of the caller; a service that refuses them leaves its part empty. */
  context(caller: Caller | undefined): Promise<{
    user: UserFact;
    walletBalancePaise: number;
    recentActivity: ActivityFact[];
    productInterests: string[];
  }>;
  /** docs/product.md §7 POST /api/ai/chat: the built-in engine, from the caller's tools; nothing stored. */
  answerOnce(
    caller: Caller | undefined,
    req: { query: string; history: Turn[] },
  ): Promise<{ response: string; intent: string }>;
}

export function createChat(d: ChatDeps): Chat {
  async function answer(
    caller: Caller,
    question: string,
    history: Turn[],
  ): Promise<Answer & { engine: string }> {
    // Name and division are read from identity only when an answer needs them; the caller's roles
    // already say whether they may see sales or platform figures.
    const user = lazyUser(caller, d.tools);
    try {
      // One refusal rule for both engines: other people's records and requests to drop the rules are
      // declined before any tool runs, whatever a model would have made of them.
      if (d.model && declinedByRules(question))
        return { response: othersData(user), intent: 'others_data', engine: 'builtin' };
      if (d.model) {
        const started = Date.now();
        try {
          const out = await modelAnswer(d.model, question, history, d.tools, await user.full(), {
            maxRounds: d.maxRounds,
          });
          return { response: out.response, intent: out.intent, engine: 'model' };
        } catch (err) {
          d.log.warn(
            { model: d.model.model, ms: Date.now() - started, error: (err as Error).message },
            'model chat failed; the built-in engine answers',
          );
          const b = await builtinAnswer(question, d.tools, user);
          return { ...b, intent: `${b.intent}_fallback`, engine: 'builtin' };
        }
      }
      return { ...(await builtinAnswer(question, d.tools, user)), engine: 'builtin' };
    } catch (err) {
      if (isOutage(err)) return { response: UNAVAILABLE, intent: 'unavailable', engine: 'builtin' };
      if (isRefusal(err))
        return { response: `${(err as { details: string }).details}.`, intent: 'refused', engine: 'builtin' };
      throw err;
    }
  }

  /** The caller's session `id`: theirs (NOT_FOUND otherwise), or a new one when theirs was cleared. */
  async function sessionFor(userId: number, id: number) {
    if (!id) return d.store.openSession(userId);
    const s = await d.store.session(id);
    if (!s || s.userId !== userId) throw notFound(CHAT_MESSAGES.sessionNotFound);
    return s.isActive ? s : d.store.openSession(userId);
  }

  const turns = (messages: StoredMessage[]): Turn[] =>
    messages.flatMap((m) =>
      m.role === 'system' ? [] : [{ role: m.role as Turn['role'], content: m.content }],
    );

  return {
    async send(caller: Caller | undefined, req: assistantV1.SendChatMessageRequest) {
      const who = signedInCaller(caller);
      const question = validQuestion(req.message);
      const session = await sessionFor(who.userId, req.sessionId);
      const rename = renameRequest(question);
      // Only a model reads the conversation; the built-in engine answers each question alone.
      const history =
        d.model && !rename ? turns(await d.store.recent(session.id, CHAT_LIMITS.contextMessages)) : [];
      const out = rename
        ? {
            response: `Done — this chat is now called "${rename}".`,
            intent: 'rename_chat',
            engine: 'builtin',
          }
        : await answer(who, question, history);
      const actionTaken = rename ? `Chat renamed to "${rename}"` : '';
      const [[asked, replied]] = await Promise.all([
        d.store.addExchange(
          { sessionId: session.id, userId: who.userId, content: question, metadata: {} },
          {
            content: out.response,
            metadata: { intent: out.intent, engine: out.engine, ...(actionTaken ? { actionTaken } : {}) },
          },
        ),
        rename ? d.store.rename(session.id, rename) : d.store.touch(session.id),
      ]);
      return {
        response: out.response,
        sessionId: session.id,
        messageId: replied.id,
        userMessageId: asked.id,
        intent: out.intent,
        actionTaken,
      };
    },

    async history(caller: Caller | undefined) {
      const who = signedInCaller(caller);
      const session = await d.store.activeSession(who.userId);
      if (!session) return { sessionId: 0, name: '', messages: [] };
      const messages = await d.store.recent(session.id, CHAT_LIMITS.historyMax);
      return { sessionId: session.id, name: session.name, messages };
    },

    async clear(caller: Caller | undefined) {
      return { deletedMessages: await d.store.clear(signedInCaller(caller).userId) };
    },

    async context(caller: Caller | undefined) {
      signedInCaller(caller);
      const [user, wallet, activity, bought] = await Promise.all([
        d.tools.me(),
        d.tools.wallet().catch(orNothing({ balancePaise: 0, heldPaise: 0, availablePaise: 0 })),
        d.tools.activity(CHAT_LIMITS.contextActivities),
        d.tools.purchases(32).catch(orNothing({ items: [], total: 0 })),
      ]);
      return {
        user,
        walletBalancePaise: wallet.balancePaise,
        recentActivity: activity,
        productInterests: productInterests(bought.items.map((o) => o.productType)),
      };
    },

    async answerOnce(caller: Caller | undefined, req: { query: string; history: Turn[] }) {
      const question = validQuestion(req.query);
      const out = await answer(
        signedInCaller(caller),
        question,
        req.history.slice(-CHAT_LIMITS.contextMessages),
      );
      return { response: out.response, intent: out.intent };
    },
  };
}
