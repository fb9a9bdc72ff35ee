import type { Connection } from 'mongoose';
import { createAccountStore } from '../../services/wallet/src/store/accounts';
import { createEntryStore } from '../../services/wallet/src/store/entries';
import { createHistoryStore } from '../../services/wallet/src/store/history';
import { createTransferStore } from '../../services/wallet/src/store/transfers';

/** The wallet service's own stores on `conn`: its models, so `ensureIndexes` creates its indexes. */
export function registerWalletModels(conn: Connection) {
  return {
    accounts: createAccountStore(conn),
    transfers: createTransferStore(conn),
    entries: createEntryStore(conn),
    history: createHistoryStore(conn),
  };
}
