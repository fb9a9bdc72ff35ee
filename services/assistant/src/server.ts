import { assistantV1 } from '@qm/contracts/grpc';
import { type GrpcServer, unauthenticated } from '@qm/platform';
import { type DescriptionInput, validDescriptionInput } from './domain/description';
import type { Drafted } from './app/descriptions';

export const ASSISTANT_SERVICE = 'qm.assistant.v1.AssistantService';

/** gRPC handlers: signed-in callers only; the rules and the drafting live elsewhere. */
export function addAssistantService(
  grpc: GrpcServer,
  write: (input: DescriptionInput) => Promise<Drafted>,
): void {
  grpc.add(ASSISTANT_SERVICE, assistantV1.AssistantServiceService, {
    async generateDescription(req, ctx) {
      if (!ctx.caller) throw unauthenticated();
      return write(validDescriptionInput(req));
    },
  });
}
