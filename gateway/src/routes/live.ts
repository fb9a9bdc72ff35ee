import { z } from 'zod';
import type { GatewayDeps } from '../deps';
import type { Api } from '../http/api';
import { HttpError } from '../http/errors';

const LiveHeaders = z.object({
  'last-event-id': z
    .string()
    .max(64)
    .optional()
    .openapi({ description: 'The last id received; what the user missed since is sent first.' }),
});

/**
 * One event of the stream, in the shape OpenAPI 3.2 gives a `text/event-stream` item (`itemSchema`)
 * and schemathesis checks each parsed event against.
 */
const EventStream = z
  .object({
    event: z.enum(['product', 'order', 'transfer', 'query', 'reset']),
    data: z.string().openapi({ description: 'The event as JSON.' }),
    id: z.string().optional(),
    retry: z.number().int().optional(),
  })
  .openapi({
    description:
      'Server-Sent Events. `product` (everyone: `{ productId, stock?, deleted? }`), `order` (its buyer ' +
      'and seller: `{ id, status, buyerId, sellerId }`), `transfer` (its receiver: `{ receiverId, ' +
      'senderUsername, amountPaise, reference }`), `query` (its sender, when signed in: `{ id, status, ' +
      'subject, userId }`), `reset` (events may have been missed: refetch, ' +
      'data `{}`). A comment every 20 s; ids resume within this gateway process for 5 minutes or ' +
      '1,000 events.',
  });

/** GET /api/live: the signed-in user's events as they happen (docs/API.md); polling stays the fallback. */
export function registerLiveRoutes(api: Api, { live }: GatewayDeps): void {
  api.route({
    method: 'get',
    path: '/api/live',
    tag: 'Live updates',
    summary: "The caller's live events (stock, their orders, money received) as Server-Sent Events.",
    access: 'user',
    headers: LiveHeaders,
    response: EventStream,
    responseType: 'text/event-stream',
    errors: { 429: 'Too many live streams open for this user' },
    async handler({ caller, headers, res }) {
      if (!live) throw new HttpError(503, 'Live updates are unavailable');
      res.status(200);
      // no-transform: the compression middleware leaves the stream alone (it would hold events back);
      // X-Accel-Buffering: a proxy such as nginx passes each event on at once.
      res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
      res.setHeader('Cache-Control', 'no-store, no-transform');
      res.setHeader('X-Accel-Buffering', 'no');
      const stream = live.open(caller.userId, res, headers['last-event-id']);
      if (!stream) {
        res.removeHeader('Content-Type');
        throw new HttpError(429, 'Too many live streams open for this user');
      }
      res.flushHeaders();
      // The browser went away (or the server ends the response): the stream's timers and slot go too.
      res.on('close', () => stream.close());
    },
  });
}
