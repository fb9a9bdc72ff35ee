import type { AskingUser } from '../src/app/builtin-engine';
import type { UserFact } from '../src/domain/facts';

/** The chat tests' user: an Army buyer unless `over` says otherwise. */
export const person = (over: Partial<UserFact> = {}): UserFact => ({
  userId: 7,
  username: 'arjun',
  firstName: 'Arjun',
  name: 'Arjun Mehta',
  role: 'Army',
  division: '',
  isAdmin: false,
  ...over,
});

/** The built-in engine's view of who asks. */
export const asking = (fact: UserFact): AskingUser => ({
  isAdmin: fact.isAdmin,
  isManufacturer: fact.role === 'Manufacturer',
  full: () => Promise.resolve(fact),
});
