import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import type { RefusingMiddleware } from './api';

/**
 * Per-client rate limit answering the API's JSON error shape (and documented as the route's 429).
 * `key: 'user'` counts per signed-in user (their own budget whatever network they share), falling
 * back to the client address for anyone else.
 */
export function limit(opts: {
  windowMs: number;
  limit: number;
  message: string;
  key?: 'ip' | 'user';
}): RefusingMiddleware {
  const middleware: RefusingMiddleware = rateLimit({
    windowMs: opts.windowMs,
    limit: opts.limit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    ...(opts.key === 'user'
      ? {
          keyGenerator: (req, res) => {
            const caller = res.locals.ctx?.caller;
            return caller ? `user:${caller.userId}` : ipKeyGenerator(req.ip ?? '');
          },
        }
      : {}),
    handler: (_req, res) => {
      res.status(429).json({ message: opts.message });
    },
  });
  middleware.answers = { 429: opts.message };
  return middleware;
}
