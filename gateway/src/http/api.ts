import { OpenApiGeneratorV31, OpenAPIRegistry, extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import type { Request, RequestHandler, Response, Router } from 'express';
import { z } from 'zod';
import { type Caller, type Role } from '@qm/platform';
import { HttpError } from './errors';

extendZodWithOpenApi(z);

/** Who may call a route; enforced here on the server whatever the UI shows. */
export type Access = 'public' | 'user' | 'admin' | { roles: Role[] };

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';
type Schema = z.ZodType | undefined;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface HandlerInput<B, P, Q> {
  body: B;
  params: P;
  query: Q;
  caller: Caller | undefined;
  req: Request;
  res: Response;
}

export interface RouteSpec<B extends Schema, P extends Schema, Q extends Schema, C extends Access> {
  method: Method;
  /** Express-style path (`/api/products/:id`); documented as `/api/products/{id}`. */
  path: string;
  summary: string;
  tag: string;
  access: C;
  body?: B;
  params?: P;
  query?: Q;
  /** Response schema for the OpenAPI document. */
  response?: z.ZodType;
  status?: number;
  /** Further error answers for the OpenAPI document, e.g. `{ 409: 'Changed since it was read' }`. */
  errors?: Record<number, string>;
  before?: RequestHandler[];
  handler(
    input: HandlerInput<Out<B>, Out<P>, Out<Q>> & {
      caller: C extends 'public' ? Caller | undefined : Caller;
    },
  ): Promise<unknown>;
}

export interface Api {
  readonly registry: OpenAPIRegistry;
  route<B extends Schema, P extends Schema, Q extends Schema, C extends Access>(
    spec: RouteSpec<B, P, Q, C>,
  ): void;
  document(serverUrl: string): unknown;
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
 * Binds routes to an Express router and documents them in one place: the zod schemas that validate
 * a request are the ones the OpenAPI document is generated from.
 */
export function createApi(router: Router): Api {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'session', {
    type: 'apiKey',
    in: 'cookie',
    name: 'qm_session',
  });
  const ErrorBody = registry.register('Error', z.object({ message: z.string() }));

  return {
    registry,
    route(spec) {
      const docPath = spec.path.replace(/:(\w+)/g, '{$1}');
      registry.registerPath({
        method: spec.method,
        path: docPath,
        summary: spec.summary,
        tags: [spec.tag],
        security: spec.access === 'public' ? [] : [{ session: [] }],
        request: {
          ...(spec.params ? { params: spec.params as never } : {}),
          ...(spec.query ? { query: spec.query as never } : {}),
          ...(spec.body ? { body: { content: { 'application/json': { schema: spec.body } } } } : {}),
        },
        responses: {
          [spec.status ?? 200]: {
            description: 'Success',
            ...(spec.response ? { content: { 'application/json': { schema: spec.response } } } : {}),
          },
          ...(spec.body || spec.params || spec.query
            ? {
                400: { description: 'Invalid input', content: { 'application/json': { schema: ErrorBody } } },
              }
            : {}),
          ...(spec.access !== 'public'
            ? {
                401: { description: 'Not signed in', content: { 'application/json': { schema: ErrorBody } } },
                403: { description: 'Not allowed', content: { 'application/json': { schema: ErrorBody } } },
              }
            : {}),
          ...Object.fromEntries(
            Object.entries(spec.errors ?? {}).map(([code, description]) => [
              code,
              { description, content: { 'application/json': { schema: ErrorBody } } },
            ]),
          ),
        },
      });

      const handler: RequestHandler = async (req, res) => {
        const caller = res.locals.ctx.caller;
        authorise(spec.access, caller);
        const input = {
          body: spec.body ? spec.body.parse(req.body ?? {}) : undefined,
          params: spec.params ? spec.params.parse(req.params) : undefined,
          query: spec.query ? spec.query.parse(req.query) : undefined,
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
      router[spec.method](spec.path.replace(/^\/api(?=\/)/, ''), ...(spec.before ?? []), handler);
    },
    document(serverUrl) {
      return new OpenApiGeneratorV31(registry.definitions).generateDocument({
        openapi: '3.1.0',
        info: {
          title: 'Quartermaster API',
          version: '1.0.0',
          description:
            'REST API of the Quartermaster marketplace (spec §7). Errors are `{ "message": "..." }`.',
        },
        servers: [{ url: serverUrl }],
      });
    },
  };
}
