import type { BackgroundWork } from '@qm/platform';

/**
 * What the assistant runs besides its gRPC API, for @qm/platform to register: nothing yet. It
 * answers requests only; the chat assistant's consumers (e.g. catalogue changes) will be listed here.
 */
export const assistantConsumers: BackgroundWork = { consumers: [], listeners: [], jobs: [] };
