import { Metadata } from '@grpc/grpc-js';
import type { Attributes, TextMapGetter, TextMapSetter } from '@opentelemetry/api';
import { type Caller, type RequestContext, newRequestId } from '../context';

export const MD_REQUEST_ID = 'x-request-id';
export const MD_USER_ID = 'x-user-id';
export const MD_USERNAME = 'x-username';
export const MD_ROLES = 'x-user-roles';

export function contextToMetadata(ctx: RequestContext | undefined, md = new Metadata()): Metadata {
  md.set(MD_REQUEST_ID, ctx?.requestId ?? newRequestId());
  if (ctx?.caller) {
    md.set(MD_USER_ID, String(ctx.caller.userId));
    md.set(MD_USERNAME, encodeURIComponent(ctx.caller.username));
    md.set(MD_ROLES, ctx.caller.roles.join(','));
  }
  return md;
}

function first(md: Metadata, key: string): string | undefined {
  const v = md.get(key)[0];
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

export function metadataToContext(md: Metadata): RequestContext {
  const requestId = first(md, MD_REQUEST_ID) ?? newRequestId();
  const userId = Number(first(md, MD_USER_ID));
  const username = first(md, MD_USERNAME);
  if (!Number.isSafeInteger(userId) || userId <= 0 || !username) return { requestId };
  const roles = (first(md, MD_ROLES) ?? '').split(',').filter((r) => r.length > 0);
  const caller: Caller = { userId, username: decodeURIComponent(username), roles };
  return { requestId, caller };
}

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
