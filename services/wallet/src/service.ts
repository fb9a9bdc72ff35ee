import { createIdempotency, createMailer, createOutbox, type ServiceDefinition } from '@qm/platform';
import { serviceDefaults } from '@qm/roster';
import { ACTIVITY_SUBJECT, WALLET_SUBJECTS } from '@qm/contracts/events';
import { followUserChanges, identityDirectory } from '@qm/contracts/grpc';
import { WALLET_MESSAGES } from '@qm/contracts/rest';
import { createEscrows } from './app/escrows';
import { createHolds } from './app/holds';
import { answering } from './app/identity';
import { createLedger } from './app/ledger';
import { createPins } from './app/pins';
import { createSaleRefunds } from './app/sale-refunds';
import { createReceipts } from './app/receipts';
import { createMoneyStats } from './app/stats';
import { createSweeper } from './app/sweeper';
import { createTopUps } from './app/topups';
import { createWallets } from './app/wallets';
import { createWalletNumbers } from './app/wallet-numbers';
import { walletEnv } from './config';
import { walletBackground } from './events/consumers';
import { addWalletService } from './server';
import { createAccountStore } from './store/accounts';
import { createEntryStore } from './store/entries';
import { createHistoryStore } from './store/history';
import { createMarkerWindows } from './store/marker-windows';
import { createPinStore } from './store/pins';
import { createTransferStore } from './store/transfers';
import { createTopUpStore } from './store/topups';
import { createProviders } from './providers/providers';
import { topUpSettings } from './providers/config';

export { walletEnv } from './config';

/** The wallet service (port and database: @qm/roster): the ledger of docs/product.md §3 wallets and transactions. */
export const walletService: ServiceDefinition<typeof walletEnv> = {
  ...serviceDefaults('wallet'),
  env: walletEnv,
  async setup({ config, log, conn, bus, grpc, faults }) {
    if (config.WALLET_FAULT && config.NODE_ENV === 'production')
      throw new Error('WALLET_FAULT is for tests only');
    // A copy younger than their difference is never fenced: requests and the sweeper act within it.
    if (config.MARKER_RETENTION_MS < config.CLOCK_SKEW_MS + 5_000)
      throw new Error('MARKER_RETENTION_MS must be at least CLOCK_SKEW_MS + 5000');
    const accounts = createAccountStore(conn, { clockSkewMs: config.CLOCK_SKEW_MS });
    const transfers = createTransferStore(conn);
    const entries = createEntryStore(conn);
    const history = createHistoryStore(conn);
    const pinStore = createPinStore(conn);

    const outbox = createOutbox({
      conn,
      bus,
      log,
      // The wallet publishes activity and a top-up's credit only, after its change is done (a
      // transfer's, by the ledger as it posts it); a transfer's receipt is a notice, never written.
      confirm: async (_event, subject) =>
        subject === ACTIVITY_SUBJECT || subject === WALLET_SUBJECTS.topUpCredited,
      intervalMs: config.OUTBOX_RELAY_MS,
    });
    outbox.start();
    const mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, log, faults });
    const users = identityDirectory({
      address: config.IDENTITY_GRPC_ADDR,
      service: 'wallet',
      token: config.INTERNAL_TOKEN,
    });
    const numbers = createWalletNumbers();
    // A user who changed is asked of identity again, and their wallet read again (docs/adr/048).
    const stopFollowingUsers = followUserChanges(bus, {
      forget: (userId) => {
        users.forget(userId);
        numbers.forget(userId);
      },
    });
    const directory = answering(users);
    const idempotency = createIdempotency({
      conn,
      messages: {
        inProgress: WALLET_MESSAGES.idempotencyInProgress,
        mismatch: WALLET_MESSAGES.idempotencyMismatch,
      },
    });
    const fault =
      config.WALLET_FAULT === 'after-debit'
        ? () => {
            log.warn('WALLET_FAULT after-debit: killing the process between debit and credit');
            process.kill(process.pid, 'SIGKILL');
          }
        : undefined;
    const ledger = createLedger({ accounts, transfers, entries, history, log, outbox, fault });
    const pins = createPins({ pins: pinStore, directory, mailer, log });
    const wallets = createWallets({
      accounts,
      history,
      ledger,
      directory,
      pins: pins.gate,
      outbox,
      numbers,
    });
    const holds = createHolds({
      accounts,
      ledger,
      numbers,
      defaultTimeoutSeconds: config.HOLD_TIMEOUT_SECONDS,
    });
    const escrows = createEscrows({ accounts, ledger, directory, log });
    const topups = createTopUpStore(conn);
    const providers = createProviders(conn, topUpSettings(config), log, faults);
    const topUps = createTopUps({
      accounts,
      history,
      ledger,
      topups,
      providers,
      idempotency,
      log,
      faults,
      expiryMinutes: config.TOPUP_EXPIRY_MINUTES,
    });
    const stats = createMoneyStats({ conn, accounts, entries });
    const saleRefunds = createSaleRefunds({ accounts, transfers, ledger });
    addWalletService(grpc, { wallets, pins, holds, escrows, saleRefunds, topUps, stats });

    const sweeper = createSweeper({
      accounts,
      transfers,
      windows: createMarkerWindows(conn),
      ledger,
      escrows,
      log,
      graceMs: config.SWEEP_GRACE_MS,
      markerRetentionMs: config.MARKER_RETENTION_MS,
    });
    return {
      ...walletBackground({
        conn,
        log,
        accounts,
        userApprovedDurable: config.WALLET_USER_APPROVED_DURABLE,
        userClosedDurable: config.WALLET_USER_CLOSED_DURABLE,
        receipts: createReceipts({ topups, accounts, directory, mailer, log }),
        topUpReceiptDurable: config.WALLET_TOPUP_RECEIPT_DURABLE,
        jobs: [
          { name: 'ledger-sweep', everyMs: config.SWEEP_INTERVAL_MS, run: () => sweeper.sweep() },
          { name: 'idempotency-expiry', everyMs: 10 * 60_000, run: () => idempotency.sweep() },
          ...topUps.jobs,
        ],
      }),
      stop: async () => {
        await outbox.stop();
        mailer.close();
        stopFollowingUsers();
        directory.close();
      },
    };
  },
};
