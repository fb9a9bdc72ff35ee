import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { ZipkinExporter } from '@opentelemetry/exporter-zipkin';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  SimpleSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { z } from 'zod';

/**
 * The standard OpenTelemetry variables we honour (docs/adr/016-traces.md). Nothing set: no SDK is
 * registered and every span is the API's no-op.
 */
const httpUrl = () => z.url({ protocol: /^https?$/, error: 'must be an http(s):// URL' }).optional();

export const tracingEnv = {
  /** OTLP/HTTP (protobuf) collector, e.g. http://otel-collector:4318; spans go to <it>/v1/traces. */
  OTEL_EXPORTER_OTLP_ENDPOINT: httpUrl(),
  /** The full traces URL, when it is not <OTEL_EXPORTER_OTLP_ENDPOINT>/v1/traces. */
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: httpUrl(),
  /** A Zipkin server's /api/v2/spans: the local viewer of `make dev TRACES=1`. */
  OTEL_EXPORTER_ZIPKIN_ENDPOINT: httpUrl(),
  /** Overrides the service's own name (the roster's) as service.name. */
  OTEL_SERVICE_NAME: z.string().min(1).optional(),
  /** true turns tracing off whatever else is set. */
  OTEL_SDK_DISABLED: z.enum(['true', 'false', '']).optional(),
};

export type TracingEnv = Partial<Record<keyof typeof tracingEnv, string>>;

export interface TracingOptions {
  /** service.name unless OTEL_SERVICE_NAME says otherwise. */
  serviceName: string;
  env?: TracingEnv;
  /** Tests: spans go to this exporter as they end, besides any configured by env. */
  exporter?: SpanExporter;
}

let provider: TracerProvider | undefined;

/** The exporters the environment asks for: none when no endpoint is set. */
export function exportersFromEnv(env: TracingEnv): SpanExporter[] {
  if (env.OTEL_SDK_DISABLED === 'true') return [];
  const exporters: SpanExporter[] = [];
  const otlp =
    env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ??
    (env.OTEL_EXPORTER_OTLP_ENDPOINT && `${env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`);
  if (otlp) exporters.push(new OTLPTraceExporter({ url: otlp }));
  if (env.OTEL_EXPORTER_ZIPKIN_ENDPOINT)
    exporters.push(new ZipkinExporter({ url: env.OTEL_EXPORTER_ZIPKIN_ENDPOINT }));
  return exporters;
}

/**
 * Registers the process's tracer provider, W3C trace-context propagation and the async context
 * manager, once per process (in-process test stacks start several services: the first call wins).
 * Returns whether spans are recorded.
 */
export function initTracing({ serviceName, env = process.env, exporter }: TracingOptions): boolean {
  if (provider) return true;
  const processors: SpanProcessor[] = exportersFromEnv(env).map(
    (e) => new BatchSpanProcessor({ exporter: e }),
  );
  if (exporter) processors.push(new SimpleSpanProcessor({ exporter }));
  if (!processors.length) return false;
  provider = new TracerProvider({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: env.OTEL_SERVICE_NAME ?? serviceName,
      'service.namespace': 'quartermaster',
    }),
    spanProcessors: processors,
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  return true;
}

/** Exports what is buffered and unregisters the provider (process exit, or the end of a test). */
export async function shutdownTracing(): Promise<void> {
  if (!provider) return;
  const ending = provider;
  provider = undefined;
  await ending.shutdown().catch(() => undefined);
  trace.disable();
  propagation.disable();
  context.disable();
}
