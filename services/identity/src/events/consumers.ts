import type { BackgroundWork } from '@qm/platform';
import type { Sweeper } from '../app/sweeper';

/**
 * What identity runs besides its gRPC API, for @qm/platform to register. It consumes no other
 * service's events (it is the source of accounts); its one periodic job is the sweep that
 * finishes half-done work (app/sweeper.ts).
 */
export function identityConsumers(opts: { sweeper: Sweeper; sweepEveryMs: number }): BackgroundWork {
  return {
    consumers: [],
    jobs: [{ name: 'sweep', everyMs: opts.sweepEveryMs, run: opts.sweeper.once }],
  };
}
