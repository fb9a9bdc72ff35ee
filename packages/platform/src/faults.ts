import { randomUUID } from 'node:crypto';
import { FlagdProvider } from '@openfeature/flagd-provider';
import { OpenFeature } from '@openfeature/server-sdk';
import { z } from 'zod';
import type { Logger } from './logger';

/**
 * Fault flags (docs/FAULTS.md), in the spirit of the OpenTelemetry demo's flagd: each process reads them
 * at run time from a flagd flag file (`QM_FAULTS_FILE`, polled every 5 s, so a running stack can be
 * broken and healed by editing it) and from `QM_FAULTS` (a JSON object, fixed for the process's life,
 * which wins over the file). Neither set: every flag is off and costs nothing. docs/FAULTS.md lists
 * them with examples.
 *
 * `<service>Unreachable` and `<service>LatencyMs` apply to every gRPC service by its roster name
 * (walletUnreachable, catalogLatencyMs, ...): the platform's gRPC server answers UNAVAILABLE, or
 * waits, before the handler runs.
 */
export interface Faults {
  /** False when no flag source is configured: callers may skip their checks entirely. */
  readonly active: boolean;
  /** Whether a boolean flag is on. */
  on(name: string): Promise<boolean>;
  /** A numeric flag's value; 0 when unset. */
  number(name: string): Promise<number>;
  /** True with the probability a rate flag (0..1) gives. */
  chance(name: string): Promise<boolean>;
  close(): Promise<void>;
}

const FlagValues = z.record(z.string(), z.union([z.boolean(), z.number().finite()]));

const NO_FAULTS: Faults = {
  active: false,
  on: async () => false,
  number: async () => 0,
  chance: async () => false,
  close: async () => undefined,
};

/** The faults a process runs with, from its environment (QM_FAULTS, QM_FAULTS_FILE). */
export async function faultsFromEnv(env: NodeJS.ProcessEnv, log: Logger): Promise<Faults> {
  const fixed = parseFixed(env.QM_FAULTS);
  const file = env.QM_FAULTS_FILE?.trim();
  if (!file && !Object.keys(fixed).length) return NO_FAULTS;

  let client: ReturnType<typeof OpenFeature.getClient> | undefined;
  let provider: FlagdProvider | undefined;
  if (file) {
    provider = new FlagdProvider({ resolverType: 'in-process', offlineFlagSourcePath: file });
    // One OpenFeature domain per instance: tests run several services in one process.
    const domain = `faults-${randomUUID()}`;
    await OpenFeature.setProviderAndWait(domain, provider);
    client = OpenFeature.getClient(domain);
  }
  log.warn({ file, fixed }, 'fault flags are active');

  // A flag missing from the file, or of another type, evaluates to its default: off.
  const number = async (name: string) => {
    const v = Object.hasOwn(fixed, name) ? fixed[name] : await client?.getNumberValue(name, 0);
    return typeof v === 'number' && v > 0 ? v : 0;
  };
  return {
    active: true,
    on: async (name) =>
      (Object.hasOwn(fixed, name) ? fixed[name] : await client?.getBooleanValue(name, false)) === true,
    number,
    chance: async (name) => Math.random() < Math.min(1, await number(name)),
    close: async () => {
      await provider?.onClose();
    },
  };
}

function parseFixed(raw: string | undefined): Record<string, boolean | number> {
  if (!raw?.trim()) return {};
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new Error('QM_FAULTS must be a JSON object such as {"walletUnreachable":true}');
  }
  const parsed = FlagValues.safeParse(json);
  if (!parsed.success) throw new Error('QM_FAULTS values must be booleans or numbers');
  return parsed.data;
}

/** Waits a numeric flag's milliseconds, if any. */
export async function faultDelay(faults: Faults, name: string): Promise<void> {
  const ms = await faults.number(name);
  if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
}
