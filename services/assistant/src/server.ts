import { assistantV1 } from '@qm/contracts/grpc';
import { type GrpcServer, unauthenticated } from '@qm/platform';
import type { Chat } from './app/chat';
import type { Drafted } from './app/descriptions';
import { type DescriptionInput, mayDraftDescriptions, validDescriptionInput } from './domain/description';
import type { StoredMessage } from './store/chats';

export const ASSISTANT_SERVICE = 'qm.assistant.v1.AssistantService';

const messageToProto = (m: StoredMessage): assistantV1.ChatMessage => ({
  id: m.id,
  sessionId: m.sessionId,
  role: m.role,
  content: m.content,
  intent: m.metadata.intent ?? '',
  createdAt: m.createdAt.toISOString(),
});

const AS_TURN = new Set(['user', 'assistant']);

/** gRPC handlers: signed-in callers only; the rules, the engines and the storage live elsewhere. */
export function addAssistantService(
  grpc: GrpcServer,
  d: { write: (input: DescriptionInput) => Promise<Drafted>; chat: Chat },
): void {
  grpc.add(ASSISTANT_SERVICE, assistantV1.AssistantServiceService, {
    async generateDescription(req, ctx) {
      if (!ctx.caller) throw unauthenticated();
      mayDraftDescriptions(ctx.caller);
      return d.write(validDescriptionInput(req));
    },
    sendChatMessage: (req, ctx) => d.chat.send(ctx.caller, req),
    async getChatHistory(_req, ctx) {
      const h = await d.chat.history(ctx.caller);
      return { sessionId: h.sessionId, name: h.name, messages: h.messages.map(messageToProto) };
    },
    clearChatHistory: (_req, ctx) => d.chat.clear(ctx.caller),
    async getUserContext(_req, ctx) {
      const c = await d.chat.context(ctx.caller);
      return {
        userId: c.user.userId,
        username: c.user.username,
        role: c.user.isAdmin ? 'Admin' : c.user.role,
        name: c.user.name,
        walletBalancePaise: c.walletBalancePaise,
        recentActivity: c.recentActivity,
        productInterests: c.productInterests,
      };
    },
    answerOnce: (req, ctx) =>
      d.chat.answerOnce(ctx.caller, {
        query: req.query,
        history: req.history.flatMap((m) =>
          AS_TURN.has(m.role) ? [{ role: m.role as 'user' | 'assistant', content: m.content }] : [],
        ),
      }),
  });
}
