import { Metadata } from '@grpc/grpc-js';
import type { Attributes, TextMapGetter, TextMapSetter } from '@opentelemetry/api';
import { type RequestContext, newRequestId } from '../context';
import { MD_CALLER } from './caller-assertion';

export const MD_REQUEST_ID = 'x-request-id';

/**
 * Request id and, on a call made on a user's behalf, the caller's verified assertion, relayed
 * unchanged (docs/adr/021). The caller itself never travels as plain metadata.
 */
export function contextToMetadata(ctx: RequestContext | undefined, md = new Metadata()): Metadata {
  md.set(MD_REQUEST_ID, ctx?.requestId ?? newRequestId());
  if (ctx?.assertion && md.get(MD_CALLER).length === 0) md.set(MD_CALLER, ctx.assertion);
  return md;
}

function first(md: Metadata, key: string): string | undefined {
  const v = md.get(key)[0];
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

/** The request id; the caller is set by the server once its assertion is verified (server.ts). */
export function metadataToContext(md: Metadata): RequestContext {
  return { requestId: first(md, MD_REQUEST_ID) ?? newRequestId() };
}

/**
 * Headers that once carried the caller in plain text (x-user-id, x-username, x-user-roles): a call
 * that still sends one claims a user without proof and is refused (server.ts).
 */
export const PLAIN_CALLER_HEADERS = ['x-user-id', 'x-username', 'x-user-roles'] as const;

/** Trace context (traceparent) in gRPC metadata. */
export const metadataSetter: TextMapSetter<Metadata> = {
  set: (md, key, value) => md.set(key, value),
};
export const metadataGetter: TextMapGetter<Metadata> = {
  get: (md, key) => first(md, key),
  keys: (md) => Object.keys(md.getMap()),
};

/** Semantic-convention attributes of a call to `/package.Service/Method`. */
export function rpcAttributes(path: string): Attributes {
  const [, service = '', method = ''] = path.split('/');
  return { 'rpc.system': 'grpc', 'rpc.service': service, 'rpc.method': method };
}
