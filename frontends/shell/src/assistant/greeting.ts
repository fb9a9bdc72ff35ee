import {
  CHAT_DIVISIONS,
  chatDivisionOf,
  chatGreetingFor,
  type ChatDivision,
  type ChatPerson,
} from '@qm/contracts/rest';

/**
 * The panel's greeting and division: the one rule of `@qm/contracts` (api/chat.ts), which the assistant
 * service uses for its own greeting and list of what it can do, so the two never disagree.
 */
export const DIVISIONS = CHAT_DIVISIONS;
export type Division = ChatDivision;
export type GreetingUser = ChatPerson;
export const divisionOf = chatDivisionOf;
export const greetingFor = chatGreetingFor;
