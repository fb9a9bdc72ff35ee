import type { Request, RequestHandler, Response } from 'express';
import type { Caller } from '@qm/platform';

/** Turns a request's session cookie into the signed-in caller (or none). */
export interface SessionResolver {
  resolve(req: Request, res: Response): Promise<Caller | undefined>;
}

/** Until a session store is wired in, every request is anonymous. */
export const anonymousSessions: SessionResolver = { resolve: async () => undefined };

export function authenticate(sessions: SessionResolver): RequestHandler {
  return async (req, res, next) => {
    try {
      res.locals.ctx.caller = await sessions.resolve(req, res);
      next();
    } catch (err) {
      next(err);
    }
  };
}
