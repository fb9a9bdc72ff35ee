import type { Logger } from '@qm/platform';
import type { Clients } from './clients';
import type { CallMetrics } from './http/metrics';
import type { GatewayConfig } from './config';
import type { HitCounter } from './http/rate-limit-store';
import type { SessionResolver } from './http/session';
import type { LiveHub } from './live/hub';

/** What the app and its route modules are built from (its own module, so routes need not import app.ts). */
export interface GatewayDeps {
  config: GatewayConfig;
  log: Logger;
  clients: Clients;
  sessions: SessionResolver;
  /** The live events of GET /api/live; without it (no bus) that route answers 503. */
  live?: LiveHub;
  /**
   * The rate limits' counters, shared by every replica (MongoDB); without them (tests of other
   * things) each limiter counts in this process's memory.
   */
  rateLimits?: HitCounter;
  /** What the clients' calls spend in line and in the services, served on /metrics beside the rest. */
  callMetrics?: CallMetrics;
}
