/** The assistant's texts of docs/product.md §8 "Assistant", word for word. */
export const ASSISTANT_TEXTS = {
  title: 'Military Inventory Assistant',
  connecting: 'Connecting...',
  online: 'Online',
  /** The chat call failed (the server answered with an error) and the fallback did not answer. */
  chatCallError: "Sorry, I'm having trouble connecting right now. Please try again later.",
  /** The message could not be sent at all (no answer) and the fallback did not answer. */
  sendFailure: "I'm having trouble connecting to the AI service. Please try again.",
  /** A send failure when the loading message is no longer there. */
  sendFailureNoLoading: 'I encountered an error while processing your request. Please try again.',
  /** What the assistant says after "delete all memory" (docs/product.md §8: it says all history was cleared). */
  memoryCleared: 'All chat history has been cleared. How can I help you today?',
} as const;

/** Toasts: title and message (docs/product.md §8 "Assistant"). */
export const ASSISTANT_TOASTS = {
  connectionError: {
    title: 'Connection Error',
    message: 'Unable to connect to AI service. Please try again later.',
  },
  contextLoadingError: {
    title: 'Context Loading Error',
    message: 'Could not load your account information for the AI assistant.',
  },
  contextUpdated: { title: 'Context Updated', message: 'AI has the latest information about your account.' },
  contextUpdateFailed: {
    title: 'Context Update Failed',
    message: 'Could not update AI with latest information.',
  },
  chatCleared: { title: 'Chat Cleared', message: 'Your conversation history has been cleared locally.' },
  memoryDeleted: {
    title: 'Memory Deleted',
    message: 'All chat history has been permanently deleted from the server.',
  },
  clearFailed: { title: 'Error', message: 'Failed to clear chat history from server.' },
  /** The message is the reply's actionTaken. */
  actionCompleted: { title: 'Action Completed' },
} as const;
