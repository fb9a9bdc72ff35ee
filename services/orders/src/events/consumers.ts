import type { BackgroundWork, PeriodicJob } from '@qm/platform';

/** What the orders service runs besides its handlers: periodic jobs only (it consumes no events yet). */
export function ordersBackground(jobs: PeriodicJob[]): BackgroundWork {
  return { jobs };
}
