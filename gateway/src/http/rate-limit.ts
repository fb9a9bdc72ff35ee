import { rateLimit } from 'express-rate-limit';
import type { RefusingMiddleware } from './api';

/** Per-client rate limit answering the API's JSON error shape (and documented as the route's 429). */
export function limit(opts: {
  windowMs: number;
  limit: number;
  message: string;
  key?: 'ip' | 'ip+body';
}): RefusingMiddleware {
  const middleware: RefusingMiddleware = rateLimit({
    windowMs: opts.windowMs,
    limit: opts.limit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (_req, res) => {
      res.status(429).json({ message: opts.message });
    },
  });
  middleware.answers = { 429: opts.message };
  return middleware;
}
