import type { UserDirectory } from '@qm/contracts/grpc';
import { unavailable } from '@qm/platform';

export type { UserFacts } from '@qm/contracts/grpc';

/** Who the wallet asks about users: the receiver of a transfer, the recipient of a PIN code. */
export type Directory = Pick<UserDirectory, 'byId' | 'byUsername' | 'close'>;

/** Identity not answering is the user's "try again", not an internal error. */
export function answering(directory: UserDirectory): Directory {
  const ask = async <T>(lookup: () => Promise<T>): Promise<T> => {
    try {
      return await lookup();
    } catch {
      throw unavailable('Users cannot be looked up right now. Please try again.');
    }
  };
  return {
    byId: (id) => ask(() => directory.byId(id)),
    byUsername: (username) => ask(() => directory.byUsername(username)),
    close: () => directory.close(),
  };
}
