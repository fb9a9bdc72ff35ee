// The one list of Quartermaster's services. roster.json is the source, so the .mjs scripts read it
// without a TypeScript loader; this module gives it types and the derived views the code needs.
// test/roster.test.ts fails when the chart, CONVENTIONS, protos or services/* disagree with it.
import roster from '../roster.json';

/** A JetStream stream, declared without the environment prefix (@qm/platform adds it). */
export interface StreamSpec {
  name: string;
  subjects: string[];
}

export interface ServiceEntry {
  /** services/<name>, `<NAME>_GRPC_ADDR`, chart services.<name>, image quartermaster/<name>. */
  name: string;
  grpcPort: number;
  /** Fully qualified gRPC service of proto/qm/<name>/v1/<name>.proto. */
  protoService: string;
  /** Default MONGO_DB. */
  database: string;
  /** The stream it publishes to, if it publishes. */
  stream?: StreamSpec;
  /** No code yet: the local stack skips it and the chart leaves it disabled. */
  planned?: boolean;
}

export const SERVICES: readonly ServiceEntry[] = roster.services;

/** A name of roster.json; a plain string, since JSON gives no literal types (the tests check every use). */
export type ServiceName = string;

export const SERVICE_NAMES: readonly ServiceName[] = SERVICES.map((s) => s.name);

/** The product's streams: every service ensures all of them, so a consumer never waits for a publisher. */
export const STREAMS: readonly StreamSpec[] = SERVICES.flatMap((s) => (s.stream ? [s.stream] : []));

export function serviceOf(name: ServiceName): ServiceEntry {
  const entry = SERVICES.find((s) => s.name === name);
  if (!entry) throw new Error(`"${name}" is not in packages/roster/roster.json`);
  return entry;
}

export function streamOf(name: ServiceName): StreamSpec {
  const { stream } = serviceOf(name);
  if (!stream) throw new Error(`"${name}" publishes no stream in packages/roster/roster.json`);
  return stream;
}

/** What a service hands @qm/platform's startService from the roster. */
export function serviceDefaults(name: ServiceName) {
  const entry = serviceOf(name);
  return {
    name,
    defaultGrpcPort: entry.grpcPort,
    defaultDatabase: entry.database,
    streams: STREAMS,
  };
}
