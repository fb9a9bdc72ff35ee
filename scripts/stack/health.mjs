// Health checks for the local stack. Each check resolves true when healthy, or a short reason string.
import { createRequire } from 'node:module';
import net from 'node:net';
import { describeExit } from './process.mjs';

const require = createRequire(import.meta.url);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** GET a URL; healthy when the status passes `accept` (default: 2xx). */
export async function httpCheck(url, { accept = (s) => s >= 200 && s < 300, timeoutMs = 2000 } = {}) {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    await res.arrayBuffer().catch(() => undefined);
    return accept(res.status) ? true : `HTTP ${res.status} from ${url}`;
  } catch (err) {
    return `${url}: ${err.cause?.code ?? err.message}`;
  }
}

/** TCP connect to host:port. */
export function tcpCheck(port, host = '127.0.0.1', timeoutMs = 1000) {
  return new Promise((resolve) => {
    const sock = net.connect({ port, host });
    const done = (result) => {
      sock.destroy();
      resolve(result);
    };
    sock.setTimeout(timeoutMs, () => done(`tcp ${host}:${port}: timeout`));
    sock.once('connect', () => done(true));
    sock.once('error', (err) => done(`tcp ${host}:${port}: ${err.code ?? err.message}`));
  });
}

/** TCP connect plus a `ping` command through the official MongoDB driver. */
export async function mongoPing(url = 'mongodb://127.0.0.1:27017', timeoutMs = 2000) {
  const { port, hostname } = new URL(url);
  const tcp = await tcpCheck(Number(port || 27017), hostname);
  if (tcp !== true) return tcp;
  const { MongoClient } = require('mongodb');
  const client = new MongoClient(url, {
    serverSelectionTimeoutMS: timeoutMs,
    connectTimeoutMS: timeoutMs,
    directConnection: true,
  });
  try {
    const res = await client.db('admin').command({ ping: 1 });
    return res.ok === 1 ? true : `mongo ping answered ${JSON.stringify(res)}`;
  } catch (err) {
    return `mongo ping: ${err.message}`;
  } finally {
    await client.close().catch(() => undefined);
  }
}

// The standard health service (grpc/health/v1/health.proto), inline so no .proto file is needed.
const HEALTH_PROTO = {
  nested: {
    grpc: {
      nested: {
        health: {
          nested: {
            v1: {
              nested: {
                HealthCheckRequest: { fields: { service: { type: 'string', id: 1 } } },
                HealthCheckResponse: {
                  fields: { status: { type: 'ServingStatus', id: 1 } },
                  nested: {
                    ServingStatus: { values: { UNKNOWN: 0, SERVING: 1, NOT_SERVING: 2, SERVICE_UNKNOWN: 3 } },
                  },
                },
                Health: {
                  methods: {
                    Check: { requestType: 'HealthCheckRequest', responseType: 'HealthCheckResponse' },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
};
let HealthClient;

/** `grpc.health.v1.Health/Check` against host:port; healthy when the answer is SERVING. */
export function grpcHealth(address, { service = '', timeoutMs = 1500 } = {}) {
  const grpc = require('@grpc/grpc-js');
  if (!HealthClient) {
    const { fromJSON } = require('@grpc/proto-loader');
    const def = fromJSON(HEALTH_PROTO, { keepCase: true, enums: String, defaults: true });
    HealthClient = grpc.loadPackageDefinition(def).grpc.health.v1.Health;
  }
  const client = new HealthClient(address, grpc.credentials.createInsecure());
  return new Promise((resolve) => {
    client.Check({ service }, { deadline: Date.now() + timeoutMs }, (err, res) => {
      client.close();
      if (err) resolve(`grpc health ${address}: ${err.details || err.message}`);
      else resolve(res.status === 'SERVING' ? true : `grpc health ${address}: ${res.status}`);
    });
  });
}

export class StackError extends Error {
  constructor(message, { proc } = {}) {
    super(message);
    this.name = 'StackError';
    this.proc = proc?.name;
    this.logFile = proc?.logFile;
  }
}

/**
 * Polls `check` until it reports healthy. Fails fast when the process exits first, and after
 * `timeoutMs` with the last reason; both errors carry the tail of the process's log.
 */
export async function waitHealthy(proc, check, { timeoutMs = 60000, intervalMs = 250, signal } = {}) {
  const started = Date.now();
  let last = 'not checked yet';
  const withTail = (msg) =>
    new StackError(`${msg}\n--- last lines of ${proc.logFile} ---\n${proc.tail(40)}\n---`, { proc });
  for (;;) {
    if (signal?.aborted) throw new StackError(`start of ${proc.name} aborted`, { proc });
    if (proc.exit) throw withTail(`${proc.name} ${describeExit(proc.exit)} before it became healthy`);
    const result = await check().catch((err) => err.message);
    if (result === true) return Date.now() - started;
    last = result;
    if (Date.now() - started > timeoutMs) {
      throw withTail(
        `${proc.name} did not become healthy within ${Math.round(timeoutMs / 1000)} s (${last})`,
      );
    }
    await Promise.race([sleep(intervalMs), proc.exited]);
  }
}
