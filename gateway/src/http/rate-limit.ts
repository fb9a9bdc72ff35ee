import type { Request, Response } from 'express';
import { ipKeyGenerator, MemoryStore, rateLimit, type Options, type Store } from 'express-rate-limit';
import type { RefusingMiddleware } from './api';
import { HttpError } from './errors';
import type { HitCounter } from './rate-limit-store';

/**
 * A limiter's state: in memory until the app hands it the shared counters (`share`, called by
 * `api.route` when the route is registered) under a name that is the same on every replica and
 * after a restart (the first route it guards), so all replicas count against one budget.
 */
class SharedStore implements Store {
  private windowMs = 60_000;
  private readonly memory = new MemoryStore();
  private counter: HitCounter | undefined;
  prefix = '';
  get localKeys() {
    return !this.counter;
  }

  init(options: Options) {
    this.windowMs = options.windowMs;
    this.memory.init(options);
  }

  share(counter: HitCounter, name: string) {
    if (this.counter) return;
    this.counter = counter;
    this.prefix = `${name} `;
  }

  async increment(key: string) {
    if (!this.counter) return this.memory.increment(key);
    try {
      return await this.counter.increment(this.prefix + key, this.windowMs);
    } catch {
      // Without its counters the limit cannot hold: refuse (a 503, as for any part that is down).
      throw new HttpError(503, 'Service temporarily unavailable. Please try again shortly.');
    }
  }

  async decrement(key: string) {
    if (!this.counter) return this.memory.decrement(key);
    await this.counter.decrement(this.prefix + key).catch(() => undefined);
  }

  async get(key: string) {
    return this.counter ? this.counter.get(this.prefix + key) : this.memory.get(key);
  }

  async resetKey(key: string) {
    if (!this.counter) return this.memory.resetKey(key);
    await this.counter.reset(this.prefix + key);
  }

  shutdown() {
    this.memory.shutdown();
  }
}

/** A limiter that can be given the shared counters (see SharedStore). */
export type Limiter = RefusingMiddleware & { share(counter: HitCounter, name: string): void };

export function isLimiter(mw: RefusingMiddleware): mw is Limiter {
  return typeof (mw as Partial<Limiter>).share === 'function';
}

/**
 * The account a sign-in or password-reset request names (its `username` or `emailOrUsername`,
 * compared as the services do: trimmed, any letter case), whoever sends it (a session does not buy
 * a budget of its own against another account); else the signed-in caller, for their own code
 * routes. Undefined when the request names none (SSO sign-in): only the address limit applies.
 */
function accountOf(req: Request, res: Response): string | undefined {
  const body: unknown = req.body;
  const { username, emailOrUsername } = (body && typeof body === 'object' ? body : {}) as Record<
    string,
    unknown
  >;
  const name = typeof emailOrUsername === 'string' ? emailOrUsername : username;
  const normalised = typeof name === 'string' ? name.trim().toLowerCase() : '';
  if (normalised) return `account:${normalised}`;
  const caller = res.locals.ctx?.caller;
  return caller ? `user:${caller.userId}` : undefined;
}

type LimitKey = 'ip' | 'user' | 'account';

function oneLimit(opts: { windowMs: number; limit: number; message: string; key: LimitKey }): Limiter {
  const store = new SharedStore();
  const byAddress = (req: Request) => ipKeyGenerator(req.ip ?? '');
  const keyGenerator =
    opts.key === 'user'
      ? (req: Request, res: Response) => {
          const caller = res.locals.ctx?.caller;
          return caller ? `user:${caller.userId}` : byAddress(req);
        }
      : opts.key === 'account'
        ? (req: Request, res: Response) => accountOf(req, res)!
        : byAddress;
  const middleware = rateLimit({
    windowMs: opts.windowMs,
    limit: opts.limit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    store,
    keyGenerator,
    ...(opts.key === 'account' ? { skip: (req, res) => accountOf(req, res) === undefined } : {}),
    handler: (_req, res) => {
      res.status(429).json({ message: opts.message });
    },
  });
  return Object.assign(middleware, {
    answers: { 429: opts.message },
    share: (counter: HitCounter, name: string) => store.share(counter, `${name} ${opts.key}`),
  });
}

/**
 * Per-client rate limit answering the API's JSON error shape (and documented as the route's 429).
 * The client is its address (`key: 'ip'`, the default; behind the proxies TRUSTED_PROXIES names, the
 * address they forward), the signed-in user (`'user'`: their own budget whatever network they share,
 * else the address), or both the address and the account the request names (`'ip+account'`: sign-in
 * and codes, so that neither many addresses against one account nor one address against many
 * accounts gets past the limit). Each call makes a new limiter with its own counters.
 */
export function limit(opts: {
  windowMs: number;
  limit: number;
  message: string;
  key?: 'ip' | 'user' | 'ip+account';
}): Limiter {
  if (opts.key !== 'ip+account') return oneLimit({ ...opts, key: opts.key ?? 'ip' });
  const byAddress = oneLimit({ ...opts, key: 'ip' });
  const byAccount = oneLimit({ ...opts, key: 'account' });
  const both: RefusingMiddleware = (req, res, next) => {
    void byAddress(req, res, (err?: unknown) => (err ? next(err) : byAccount(req, res, next)));
  };
  return Object.assign(both, {
    answers: { 429: opts.message },
    share: (counter: HitCounter, name: string) => {
      byAddress.share(counter, name);
      byAccount.share(counter, name);
    },
  });
}
