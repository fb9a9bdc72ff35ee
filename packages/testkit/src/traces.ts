import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { ATTR_REQUEST_ID, initTracing, shutdownTracing } from '@qm/platform';

export type { ReadableSpan };

/**
 * Turns the platform's tracing on for this test process with every span kept in memory (call it
 * before starting the services: the first registration wins). `stop()` unregisters it.
 */
export function collectSpans() {
  const exporter = new InMemorySpanExporter();
  if (!initTracing({ serviceName: 'test', env: {}, exporter })) throw new Error('tracing did not start');
  return {
    all: (): ReadableSpan[] => exporter.getFinishedSpans(),
    /** The ended spans that carry this request id. */
    ofRequest: (requestId: string): ReadableSpan[] =>
      exporter.getFinishedSpans().filter((s) => s.attributes[ATTR_REQUEST_ID] === requestId),
    stop: shutdownTracing,
  };
}

/** The span's parent span id ('' for a root). */
export const parentOf = (span: ReadableSpan): string => span.parentSpanContext?.spanId ?? '';
