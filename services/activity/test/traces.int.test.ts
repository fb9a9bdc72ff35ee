import { randomBytes } from 'node:crypto';
import { eventually } from '@qm/testkit';
import { collectSpans, parentOf, type ReadableSpan } from '@qm/testkit/src/traces';
import { type ActivityStack, startActivityStack } from './stack';

/**
 * One API call, traced end to end (docs/adr/016-traces.md): a manufacturer creates a product
 * through the gateway, which calls the catalog over gRPC; the catalog's outbox publishes the
 * activity on NATS and the activity service's consumer stores it. Every hop's span must join the
 * caller's trace as the child of the hop before it, and carry the gateway's request id.
 */
jest.setTimeout(240_000);

let spans: ReturnType<typeof collectSpans>;
let s: ActivityStack;

beforeAll(async () => {
  // Before any service starts: the platform registers the first tracer provider it is given.
  spans = collectSpans();
  s = await startActivityStack();
});

afterAll(async () => {
  await s?.stop();
  await spans?.stop();
});

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const idOf = (span: ReadableSpan) => span.spanContext().spanId;

describe('traces across gateway → gRPC → NATS → consumer', () => {
  it('puts every hop of one request in the caller’s trace, each the child of the one before', async () => {
    const maker = await s.user('Manufacturer', 'TraceMaker');
    const requestId = `trace-test-${hex(6)}`;
    const traceId = hex(16);
    const clientSpanId = hex(8);
    const created = await maker.as.request(
      'POST',
      '/api/products',
      { name: 'Traced radio', type: 'Equipment', price: '10.00', description: 'VHF', stock: 1 },
      { 'x-request-id': requestId, traceparent: `00-${traceId}-${clientSpanId}-01` },
    );
    expect(created.status).toBe(201);
    expect(created.headers.get('x-request-id')).toBe(requestId);

    // The consumer's span ends after the activity is stored, asynchronously to the response.
    const consumed = await eventually(
      () => spans.ofRequest(requestId).find((x) => x.name === 'process activity.recorded' && x.kind === 4),
      30_000,
    );
    const trace = spans.all().filter((x) => x.spanContext().traceId === traceId);
    const one = (name: string, kind: number) => {
      const found = trace.filter((x) => x.name === name && x.kind === kind);
      expect(found.map((x) => `${x.name}/${x.kind}`)).toEqual([`${name}/${kind}`]);
      return found[0]!;
    };
    // SpanKind: SERVER 1, CLIENT 2, PRODUCER 3, CONSUMER 4.
    const http = one('POST /api/products', 1);
    const call = one('qm.catalog.v1.CatalogService/CreateProduct', 2);
    const handled = one('qm.catalog.v1.CatalogService/CreateProduct', 1);
    // At least once: the request's own publish and the outbox relay's pass may both send the event
    // (JetStream keeps one message per event id), each a child of the handler, under its stored trace.
    const published = trace.filter((x) => x.name === 'publish activity.recorded' && x.kind === 3);
    expect(published.length).toBeGreaterThanOrEqual(1);

    expect(parentOf(http)).toBe(clientSpanId);
    expect(parentOf(call)).toBe(idOf(http));
    expect(parentOf(handled)).toBe(idOf(call));
    for (const p of published) expect(parentOf(p)).toBe(idOf(handled));
    expect(published.map(idOf)).toContain(parentOf(consumed));
    expect(consumed.spanContext().traceId).toBe(traceId);
    expect(consumed.attributes['messaging.consumer.group.name']).toMatch(/act_test/);
    expect(http.attributes['http.response.status_code']).toBe(201);

    // Every span of the trace, including those not asserted above (the session's, the product
    // event's publish), carries the request id an operator would search by.
    expect(trace.length).toBeGreaterThanOrEqual(5);
    for (const x of trace) expect([x.name, x.attributes['qm.request_id']]).toEqual([x.name, requestId]);
  });

  it('starts a trace of its own for a request without traceparent, still tagged with the request id', async () => {
    const maker = await s.user('Manufacturer', 'TraceMaker');
    const requestId = `trace-test-${hex(6)}`;
    const res = await maker.as.request('GET', '/api/products?page=1', undefined, {
      'x-request-id': requestId,
    });
    expect(res.status).toBe(200);
    const http = await eventually(() => spans.ofRequest(requestId).find((x) => x.kind === 1 && !parentOf(x)));
    expect(http.name).toBe('GET /api/products');
    const calls = spans.ofRequest(requestId).filter((x) => parentOf(x) === idOf(http));
    expect(calls.length).toBeGreaterThan(0);
    for (const x of spans.ofRequest(requestId))
      expect(x.spanContext().traceId).toBe(http.spanContext().traceId);
  });
});
