import type { BackgroundWork } from '@qm/platform';

/**
 * What the assistant runs besides its gRPC API, for @qm/platform to register: nothing yet. It
 * answers requests only (the chat reads other services' data through their APIs when asked).
 */
export const assistantConsumers: BackgroundWork = { consumers: [], listeners: [], jobs: [] };
