import { rateLimit } from 'express-rate-limit';

/** Per-client rate limit answering the API's JSON error shape. */
export function limit(opts: { windowMs: number; limit: number; message: string; key?: 'ip' | 'ip+body' }) {
  return rateLimit({
    windowMs: opts.windowMs,
    limit: opts.limit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (_req, res) => {
      res.status(429).json({ message: opts.message });
    },
  });
}
