import type { ConsumerSpec, EventBus } from './events/bus';
import type { EventEnvelope } from './events/envelope';
import type { Logger } from './logger';

/** A core-NATS listener (EventBus.listen): hints with no durable state, e.g. cache invalidation. */
export interface ListenerSpec {
  subject: string;
  handle(event: EventEnvelope, subject: string): void;
}

/** Work repeated on a timer, e.g. a sweep or a resync. */
export interface PeriodicJob {
  /** Names the job in logs. */
  name: string;
  /** 0 turns the job off. */
  everyMs: number;
  /** Failures are logged and retried on the next tick; a run still going skips the tick. */
  run(): Promise<unknown>;
}

/**
 * What a service runs besides its gRPC handlers, declared as data (a service's
 * src/events/consumers.ts) so composition roots hold no subscription loops or timers: the
 * platform registers it after setup and takes it down on stop.
 */
export interface BackgroundWork {
  consumers?: ConsumerSpec[];
  listeners?: ListenerSpec[];
  jobs?: PeriodicJob[];
}

/** Starts the declared work; the returned function stops the listeners and timers. */
export async function startBackground(work: BackgroundWork, bus: EventBus, log: Logger): Promise<() => void> {
  for (const consumer of work.consumers ?? []) await bus.consume(consumer);
  const unlisten = (work.listeners ?? []).map((l) => bus.listen(l.subject, l.handle));
  const stopJobs = scheduleJobs(work.jobs ?? [], log);
  return () => {
    unlisten.forEach((stop) => stop());
    stopJobs();
  };
}

/** Runs each job every `everyMs` (never two runs of one job at once); the result stops them all. */
export function scheduleJobs(jobs: PeriodicJob[], log: Logger): () => void {
  const timers = jobs.filter((job) => job.everyMs > 0).map((job) => schedule(job, log));
  return () => timers.forEach((t) => clearInterval(t));
}

function schedule(job: PeriodicJob, log: Logger): NodeJS.Timeout {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    job
      .run()
      .catch((err: unknown) => log.warn({ err, job: job.name }, `${job.name} failed; will retry`))
      .finally(() => {
        running = false;
      });
  }, job.everyMs);
  timer.unref();
  return timer;
}
