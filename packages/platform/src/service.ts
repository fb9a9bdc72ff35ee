import type { Connection } from 'mongoose';
import { z } from 'zod';
import { exitOnConfigError, parseConfig, port, serviceEnv } from './config';
import { callerVerifyKey } from './grpc/caller-assertion';
import { type BackgroundWork, startBackground } from './background';
import { watchDatabase } from './db-health';
import { connectBus, type EventBus, type StreamSpec } from './events/bus';
import { recordHandledNow } from './events/idempotent';
import { createGrpcServer, type GrpcServer } from './grpc/server';
import { createLogger, type Logger } from './logger';
import { type Faults, faultsFromEnv } from './faults';
import { connectMongo } from './mongo';
import { chooseStoreEngine, ensureIndexes, openStoreEngine, type StoreEngine } from './store/engine';
import { initTracing, shutdownTracing } from './tracing/setup';

export interface ServiceRuntime<C> {
  config: C & z.infer<z.ZodObject<typeof serviceEnv>> & { GRPC_PORT: number; MONGO_DB: string };
  log: Logger;
  conn: Connection;
  /** The engine `conn`'s database runs on (docs/adr/024): what differs beyond the MongoDB API. */
  engine: StoreEngine;
  bus: EventBus;
  grpc: GrpcServer;
  /** Fault flags (docs/FAULTS.md): off unless QM_FAULTS or QM_FAULTS_FILE is set. */
  faults: Faults;
}

export interface ServiceDefinition<S extends z.ZodRawShape> {
  name: string;
  defaultGrpcPort: number;
  /** MONGO_DB when unset. */
  defaultDatabase: string;
  /** Streams ensured at start (the product's list, @qm/roster STREAMS). */
  streams: readonly StreamSpec[];
  env?: S;
  /**
   * Registers gRPC handlers and returns the service's background work (consumers, listeners,
   * periodic jobs) for the platform to run, with a stop hook for what it started itself.
   */
  setup(rt: ServiceRuntime<z.infer<z.ZodObject<S>>>): Promise<ServiceSetup | void>;
}

export interface ServiceSetup extends BackgroundWork {
  stop?(): Promise<void> | void;
}

export interface RunningService<C> {
  rt: ServiceRuntime<C>;
  port: number;
  stop(): Promise<void>;
}

/**
 * The same start-up for every service: validated config, logger, its own database, the bus with
 * streams in place, gRPC with health. Tests call this directly with their own env (e.g.
 * GRPC_PORT=0, a test database) to run the real service in-process.
 */
export async function startService<S extends z.ZodRawShape>(
  def: ServiceDefinition<S>,
  env: NodeJS.ProcessEnv = process.env,
  {
    onDatabaseStuck = () => undefined,
  }: {
    /** Its database answers others but not this service (db-health.ts); runService exits. */
    onDatabaseStuck?: () => void;
  } = {},
): Promise<RunningService<z.infer<z.ZodObject<S>>>> {
  const config = parseConfig(
    {
      ...serviceEnv,
      GRPC_PORT: port(def.defaultGrpcPort),
      MONGO_DB: z.string().min(1).default(def.defaultDatabase),
      ...(def.env ?? ({} as S)),
    },
    env,
  ) as ServiceRuntime<z.infer<z.ZodObject<S>>>['config'];
  const callerKey = callerVerifyKey(config.NODE_ENV, config.CALLER_VERIFY_KEY);
  // Chosen once, here, from the configuration (docs/adr/024).
  const storeEngine = chooseStoreEngine(config);
  const log = createLogger(def.name, config.LOG_LEVEL);
  if (initTracing({ serviceName: def.name, env: config }))
    log.info(
      { otlp: config.OTEL_EXPORTER_OTLP_ENDPOINT, zipkin: config.OTEL_EXPORTER_ZIPKIN_ENDPOINT },
      'tracing on',
    );
  const faults = await faultsFromEnv(env, log);
  const conn = await connectMongo(config.MONGO_URL, config.MONGO_DB, {
    maxPoolSize: config.MONGO_MAX_POOL_SIZE,
  });
  const bus = await connectBus({
    servers: config.NATS_URL,
    name: def.name,
    log,
    // Unset: the process's own default (eventsPrefix), which in-process test services share with their test.
    prefix: config.EVENTS_PREFIX,
    faults,
  });
  // Before setup: its first id (identity's admin) already comes from where the counters live.
  const engine = await openStoreEngine(conn, storeEngine);
  await bus.ensureStreams(def.streams);
  const grpc = createGrpcServer(log, {
    internalToken: config.INTERNAL_TOKEN,
    faults,
    name: def.name,
    callerKey,
  });
  const rt = { config, log, conn, engine, bus, grpc, faults };
  const own = (await def.setup(rt)) ?? {};
  // Indexes first: consumers and jobs may insert at once, and a unique index must already hold.
  await ensureIndexes(conn);
  const stopBackground = await startBackground(own, bus, log);
  const host = config.GRPC_HOST ?? (config.NODE_ENV === 'production' ? '0.0.0.0' : '127.0.0.1');
  const bound = await grpc.listen(config.GRPC_PORT, host);
  grpc.setServing(true);
  const database = watchDatabase({
    conn,
    url: config.MONGO_URL,
    log,
    everyMs: config.DB_CHECK_EVERY_MS,
    unreadyAfterMs: config.DB_UNREADY_AFTER_MS,
    stuckAfterMs: config.DB_STUCK_AFTER_MS,
    setReady: (ready) => grpc.setReady(ready),
    onStuck: onDatabaseStuck,
  });
  log.info(
    { host, port: bound, db: config.MONGO_DB, engine: engine.name, events: bus.prefix },
    `${def.name} service ready`,
  );
  return {
    rt,
    port: bound,
    async stop() {
      database.stop();
      await grpc.close();
      stopBackground();
      await own.stop?.();
      // Before the connection closes: the records of the last events handled (docs/adr/052).
      await recordHandledNow(conn).catch(() => undefined);
      await bus.close().catch(() => undefined);
      await engine.close().catch(() => undefined);
      await conn.close().catch(() => undefined);
      await faults.close();
    },
  };
}

/** Entry point of a service process: startService, exit 1 on bad config, graceful stop on signals. */
export async function runService<S extends z.ZodRawShape>(def: ServiceDefinition<S>): Promise<void> {
  // A client stuck while its database answers others is cured by a restart (docs/adr/015).
  const running = await startService(def, process.env, { onDatabaseStuck: () => process.exit(1) }).catch(
    (err: unknown) =>
      exitOnConfigError(() => {
        throw err;
      }),
  );
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    running.rt.log.info({ signal }, 'stopping');
    await running.stop();
    await shutdownTracing();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}
