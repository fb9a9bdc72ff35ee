import {
  type Attributes,
  type Context,
  context,
  defaultTextMapGetter,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  type TextMapSetter,
  trace,
} from '@opentelemetry/api';

export { SpanKind };

/** On every span of ours: the id the gateway gave the request (X-Request-Id), to find a trace by it. */
export const ATTR_REQUEST_ID = 'qm.request_id';

const tracer = () => trace.getTracer('@qm/platform');

/**
 * Starts a span under `parent` (default: the active context) carrying the request id. With no
 * tracer provider registered this is the API's non-recording span: a few calls, nothing kept.
 */
export function startSpan(
  name: string,
  kind: SpanKind,
  requestId: string | undefined,
  attributes: Attributes = {},
  parent: Context = context.active(),
): { span: Span; ctx: Context } {
  const span = tracer().startSpan(
    name,
    { kind, attributes: requestId ? { ...attributes, [ATTR_REQUEST_ID]: requestId } : attributes },
    parent,
  );
  return { span, ctx: trace.setSpan(parent, span) };
}

/** Runs `fn` with `ctx` (e.g. from startSpan) as the active trace context. */
export function withTraceContext<T>(ctx: Context, fn: () => T): T {
  return context.with(ctx, fn);
}

/** Ends a span, marking it failed with `err` when given. */
export function endSpan(span: Span, err?: unknown): void {
  if (err !== undefined) {
    span.recordException(err instanceof Error ? err : String(err));
    span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
  }
  span.end();
}

/** Runs `fn` in a new span that ends when it settles (failed if it throws). */
export async function inSpan<T>(
  name: string,
  kind: SpanKind,
  requestId: string | undefined,
  attributes: Attributes,
  fn: (span: Span) => Promise<T>,
  parent?: Context,
): Promise<T> {
  const { span, ctx } = startSpan(name, kind, requestId, attributes, parent);
  try {
    const result = await context.with(ctx, () => fn(span));
    endSpan(span);
    return result;
  } catch (err) {
    endSpan(span, err);
    throw err;
  }
}

/** Writes the trace context of `ctx` (traceparent, tracestate) through `set`. */
export function injectTrace<C>(carrier: C, setter: TextMapSetter<C>, ctx: Context = context.active()): C {
  propagation.inject(ctx, carrier, setter);
  return carrier;
}

/**
 * The context a remote caller sent, on top of an empty one: never of whatever happens to be
 * active (a gRPC connection or a consumer loop keeps the context of whoever opened it).
 */
export function extractTrace<C>(
  carrier: C,
  getter: TextMapGetter<C> = defaultTextMapGetter as TextMapGetter<C>,
): Context {
  return propagation.extract(ROOT_CONTEXT, carrier, getter);
}

/** The current trace context as plain fields, e.g. to store beside an event until it is published. */
export function traceCarrier(ctx: Context = context.active()): Record<string, string> | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  return Object.keys(carrier).length ? carrier : undefined;
}

/** Runs `fn` in the trace context stored by traceCarrier (or the current one when none was). */
export function withStoredTrace<T>(carrier: Record<string, string> | undefined, fn: () => T): T {
  return carrier ? context.with(propagation.extract(ROOT_CONTEXT, carrier), fn) : fn();
}
