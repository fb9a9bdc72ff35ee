import { OpenApiGeneratorV31, OpenAPIRegistry, extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { z } from 'zod';
import type { UserRole } from '@qm/contracts/rest';
import { type Caller } from '@qm/platform';
import { HttpError } from './errors';
import { isLimiter } from './rate-limit';
import type { HitCounter } from './rate-limit-store';

extendZodWithOpenApi(z);

/** Who may call a route; enforced here on the server whatever the UI shows. */
export type Access = 'public' | 'user' | 'admin' | { roles: UserRole[] };

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';
const METHODS: readonly Method[] = ['get', 'post', 'patch', 'put', 'delete'];

/** Refusals a route can answer (`{ message }`), each with when it happens. */
export type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 409 | 413 | 423 | 429 | 503 | 504;
export type ErrorAnswers = Partial<Record<ErrorStatus, string>>;

/** A `before` middleware that can itself refuse a request (e.g. a rate limit answering 429). */
export type RefusingMiddleware = RequestHandler & { answers?: ErrorAnswers };

/** Request bodies above this are a 413. */
const BODY_LIMIT = '100kb';

type Schema = z.ZodType | undefined;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface HandlerInput<B, P, Q, H = undefined> {
  body: B;
  params: P;
  query: Q;
  headers: H;
  /** The exact bytes of the body, on a `raw` route only. */
  rawBody: Buffer | undefined;
  caller: Caller | undefined;
  req: Request;
  res: Response;
}

/**
 * A body taken as the exact bytes sent (a provider's signed webhook: the signature covers them, so
 * they must reach the service unparsed). The handler gets it as a Buffer.
 */
export interface RawBody {
  /** Larger bodies are a 413. */
  limit: string;
  /** How the body is described in the OpenAPI document. */
  description: string;
}

export interface RouteSpec<
  B extends Schema,
  P extends Schema,
  Q extends Schema,
  C extends Access,
  H extends Schema = undefined,
> {
  method: Method;
  /** Express-style path (`/api/products/:id`); documented as `/api/products/{id}`. */
  path: string;
  summary: string;
  tag: string;
  access: C;
  body?: B;
  params?: P;
  query?: Q;
  /** Request headers read by the route: an object schema with lower-case names (documented as such). */
  headers?: H;
  /** Instead of a JSON `body`: the raw bytes (see RawBody). */
  raw?: RawBody;
  /**
   * False for a route no browser session stands behind (a provider's webhook): no CSRF refusal, so
   * no 403 is documented. The app exempts such routes from the origin check (see app.ts).
   */
  csrf?: false;
  /** Response schema for the OpenAPI document. */
  response?: z.ZodType;
  /** The response's media type in the document when not JSON (a stream the handler writes itself). */
  responseType?: 'text/event-stream';
  status?: number;
  before?: RefusingMiddleware[];
  /**
   * What the service behind the route refuses with beyond what the gateway derives from this spec
   * (input, access, method, rate limits, downstream failures): e.g. `{ 404: 'No such product' }`.
   */
  errors?: ErrorAnswers;
  handler(
    input: HandlerInput<Out<B>, Out<P>, Out<Q>, Out<H>> & {
      caller: C extends 'public' ? Caller | undefined : Caller;
    },
  ): Promise<unknown>;
}

export interface Api {
  readonly registry: OpenAPIRegistry;
  route<B extends Schema, P extends Schema, Q extends Schema, C extends Access, H extends Schema = undefined>(
    spec: RouteSpec<B, P, Q, C, H>,
  ): void;
  document(serverUrl: string): unknown;
  /** Whether a request is for a route declared `csrf: false` (no session, no origin check). */
  isSessionless(req: Request): boolean;
}

export function authorise(access: Access, caller: Caller | undefined): void {
  if (access === 'public') return;
  if (!caller) throw new HttpError(401, 'Not authenticated');
  if (access === 'user') return;
  if (access === 'admin') {
    if (!caller.roles.includes('Admin')) throw new HttpError(403, 'Administrator access required');
    return;
  }
  if (!access.roles.some((r) => caller.roles.includes(r))) {
    throw new HttpError(403, 'You do not have permission to do this');
  }
}

/**
 * Every refusal a route can answer: derived from its declaration where the gateway decides, plus
 * the service's own (`spec.errors`). The OpenAPI document lists exactly these.
 */
function errorAnswers(spec: {
  method: Method;
  access: Access;
  body?: unknown;
  params?: unknown;
  query?: unknown;
  headers?: unknown;
  raw?: RawBody;
  csrf?: false;
  before?: RefusingMiddleware[];
  errors?: ErrorAnswers;
}): ErrorAnswers {
  const answers: ErrorAnswers = {};
  if (spec.body || spec.params || spec.query || spec.headers)
    answers[400] = 'Invalid input (or a body that is not JSON, or text with NUL characters)';
  if (spec.access !== 'public') answers[401] = 'Not signed in';
  if (spec.access !== 'public' || (spec.method !== 'get' && spec.csrf !== false))
    answers[403] = 'Not allowed (role, ownership, or a cross-site request)';
  if (spec.body || spec.raw) answers[413] = 'Request body is too large';
  for (const mw of spec.before ?? []) Object.assign(answers, mw.answers);
  Object.assign(answers, spec.errors);
  // Any request may carry a session, whose check can reach the identity service.
  answers[503] =
    'A service behind the gateway is unavailable; or busy, and then Retry-After says when the same ' +
    'request (with the same Idempotency-Key) may be sent again: it was not sent on (docs/adr/026)';
  answers[504] = 'A service behind the gateway took too long';
  return answers;
}

/** `Allow` for a path: its declared methods, HEAD where GET is, and OPTIONS. */
function allowHeader(methods: Set<Method>): string {
  const allowed = METHODS.filter((m) => methods.has(m)).map((m) => m.toUpperCase());
  if (methods.has('get')) allowed.push('HEAD');
  return [...allowed, 'OPTIONS'].join(', ');
}

/**
 * Binds routes to an Express router and documents them in one place: the zod schemas that validate
 * a request are the ones the OpenAPI document is generated from.
 */
export function createApi(router: Router, opts: { counters?: HitCounter } = {}): Api {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'session', {
    type: 'apiKey',
    in: 'cookie',
    name: 'qm_session',
  });
  const ErrorBody = registry.register('Error', z.object({ message: z.string() }));
  const methodsByPath = new Map<string, Set<Method>>();
  /** `METHOD /path` (router-relative) of the routes declared `csrf: false`. */
  const sessionless = new Set<string>();
  const json = express.json({ limit: BODY_LIMIT });

  /**
   * Registered at a path's first route, before the handlers: a method no route declares there is a
   * 405 with Allow (not a 404); OPTIONS answers Allow alone.
   */
  function declarePath(path: string, method: Method): void {
    const known = methodsByPath.get(path);
    if (known) return void known.add(method);
    const methods = new Set<Method>([method]);
    methodsByPath.set(path, methods);
    router.all(path, (req, res, next) => {
      const m = req.method.toLowerCase();
      if (methods.has(m as Method) || (m === 'head' && methods.has('get'))) return next();
      res.setHeader('Allow', allowHeader(methods));
      if (m === 'options') return void res.status(204).end();
      res.status(405).json({ message: `${req.method} is not allowed here; use ${allowHeader(methods)}` });
    });
  }

  return {
    registry,
    route(spec) {
      const docPath = spec.path.replace(/:(\w+)/g, '{$1}');
      if (spec.csrf === false && (spec.access !== 'public' || /:\w/.test(spec.path)))
        throw new Error(`${spec.path}: only a public route with a fixed path can go without a session`);
      registry.registerPath({
        method: spec.method,
        path: docPath,
        summary: spec.summary,
        tags: [spec.tag],
        security: spec.access === 'public' ? [] : [{ session: [] }],
        request: {
          ...(spec.params ? { params: spec.params as never } : {}),
          ...(spec.query ? { query: spec.query as never } : {}),
          ...(spec.headers ? { headers: spec.headers as never } : {}),
          ...(spec.raw
            ? {
                body: {
                  required: true,
                  description: spec.raw.description,
                  content: { 'application/json': { schema: z.looseObject({}) } },
                },
              }
            : {}),
          ...(spec.body
            ? {
                body: {
                  // Without a body the handler validates `{}`: required exactly when that fails.
                  required: !spec.body.safeParse({}).success,
                  content: { 'application/json': { schema: spec.body } },
                },
              }
            : {}),
        },
        responses: {
          [spec.status ?? 200]: {
            description: 'Success',
            ...(spec.response
              ? { content: { [spec.responseType ?? 'application/json']: { schema: spec.response } } }
              : {}),
          },
          ...Object.fromEntries(
            Object.entries(errorAnswers(spec)).map(([status, description]) => [
              status,
              { description, content: { 'application/json': { schema: ErrorBody } } },
            ]),
          ),
        },
      });

      // Before any rate limit: a caller without access counts against nothing.
      const guard: RequestHandler = (_req, res, next) => {
        authorise(spec.access, res.locals.ctx.caller);
        next();
      };
      const handler: RequestHandler = async (req, res) => {
        const caller = res.locals.ctx.caller;
        if (spec.body) refuseNulCharacters(req.body);
        if (spec.params) refuseNulCharacters(req.params);
        if (spec.query) refuseNulCharacters(req.query);
        const input = {
          body: spec.body ? spec.body.parse(req.body ?? {}) : undefined,
          // express.raw leaves no Buffer when there was no body at all.
          rawBody: spec.raw ? (Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)) : undefined,
          params: spec.params ? spec.params.parse(req.params) : undefined,
          query: spec.query ? spec.query.parse(req.query) : undefined,
          headers: spec.headers ? spec.headers.parse(req.headers) : undefined,
          caller,
          req,
          res,
        };
        const result = await spec.handler(input as never);
        if (res.headersSent) return;
        if (result === undefined) res.status(spec.status ?? 204).end();
        else res.status(spec.status ?? 200).json(result);
      };
      // The router is mounted at /api; routes are declared with their full public path.
      const path = spec.path.replace(/^\/api(?=\/)/, '');
      declarePath(path, spec.method);
      if (spec.csrf === false) sessionless.add(`${spec.method.toUpperCase()} ${path}`);
      // Only a route that takes a body reads one (and can refuse it as malformed or too large).
      const reader = spec.raw
        ? [express.raw({ type: () => true, limit: spec.raw.limit })]
        : spec.body
          ? [json]
          : [];
      // A limiter counts in the shared counters under the name of the first route it guards.
      for (const mw of spec.before ?? [])
        if (opts.counters && isLimiter(mw))
          mw.share(opts.counters, `${spec.method.toUpperCase()} ${spec.path}`);
      router[spec.method](path, ...reader, guard, ...(spec.before ?? []), handler);
    },
    isSessionless: (req) => sessionless.has(`${req.method} ${req.path}`),
    document(serverUrl) {
      return new OpenApiGeneratorV31(registry.definitions).generateDocument({
        openapi: '3.1.0',
        info: {
          title: 'Quartermaster API',
          version: '1.0.0',
          description:
            'REST API of the Quartermaster marketplace (docs/product.md §7). Errors are `{ "message": "..." }`.',
        },
        servers: [{ url: serverUrl }],
      });
    },
  };
}

/**
 * No text with U+0000 gets past the gateway: not every store engine can hold it (the local engine's
 * storage refuses it, docs/adr/024), so it would otherwise surface as a 500 from deep inside a service.
 */
export function refuseNulCharacters(value: unknown, depth = 0): void {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) throw new HttpError(400, 'Text must not contain NUL characters');
  } else if (value && typeof value === 'object' && depth < 32) {
    for (const [key, v] of Object.entries(value)) {
      refuseNulCharacters(key, depth + 1);
      refuseNulCharacters(v, depth + 1);
    }
  }
}
