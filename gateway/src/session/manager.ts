import { createHmac, randomBytes } from 'node:crypto';
import type { CookieOptions, Request, Response } from 'express';
import { identityV1, roles } from '@qm/contracts/grpc';
import type { UserRole } from '@qm/contracts/rest';
import { type Caller, GrpcStatus, isServiceError, type Logger, type PromiseClient } from '@qm/platform';
import type { SessionResolver } from '../http/session';
import type { SessionDoc, SessionStore } from './store';

export const SESSION_COOKIE = 'qm_session';
/** Access tokens are refreshed this long before they expire. */
const REFRESH_MARGIN_MS = 30_000;
/** 256 random bits, base64url. */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

type IdentityClient = Pick<PromiseClient<typeof identityV1.IdentityServiceService>, 'refreshSession'>;

export interface SessionLogin {
  user: identityV1.User;
  tokens: identityV1.SessionTokens;
}

/** The session resolver plus what the identity routes need: start and end sessions. */
export interface SessionManager extends SessionResolver {
  /** Starts a session for a successful sign-in and sets the cookie. */
  create(req: Request, res: Response, login: SessionLogin): Promise<void>;
  /** Ends the request's session, if any, and clears the cookie; answers its tokens for the Keycloak logout. */
  destroy(req: Request, res: Response): Promise<{ refreshToken: string; clientId: string } | undefined>;
  sweep(): Promise<number>;
  start(): void;
  close(): Promise<void>;
}

export function isSessionManager(r: SessionResolver): r is SessionManager {
  return typeof (r as Partial<SessionManager>).create === 'function';
}

export interface SessionOptions {
  store: SessionStore;
  identity: IdentityClient;
  log: Logger;
  /** Keys the hash of session ids at rest. */
  secret: string;
  /** Absolute lifetime of a session. */
  maxAgeSeconds: number;
  /** Cookie Secure flag (PUBLIC_URL is https). */
  secure: boolean;
  sweepIntervalMs: number;
  now?: () => number;
}

export function rolesOf(user: identityV1.User): UserRole[] {
  const role = roles.fromProto(user.role);
  const names: UserRole[] = role ? [role] : [];
  if (user.isAdmin && !names.includes('Admin')) names.push('Admin');
  return names;
}

/**
 * Sessions in MongoDB (docs/architecture.md §4): the browser holds only a random id in an httpOnly,
 * SameSite=Lax cookie; Keycloak's tokens stay here and are refreshed through the identity service
 * shortly before the access token expires. A refresh Keycloak refuses (session ended, user
 * disabled or deleted) ends the session.
 */
export function createSessionManager(opts: SessionOptions): SessionManager {
  const { store, identity, log } = opts;
  const now = opts.now ?? Date.now;
  const refreshing = new Map<string, Promise<SessionDoc | undefined>>();
  let timer: NodeJS.Timeout | undefined;

  const keyOf = (id: string) => createHmac('sha256', opts.secret).update(id).digest('base64url');
  const cookieOptions = (): CookieOptions => ({
    httpOnly: true,
    sameSite: 'lax',
    secure: opts.secure,
    path: '/',
  });
  const clearCookie = (res: Response) => {
    if (!res.headersSent) res.clearCookie(SESSION_COOKIE, cookieOptions());
  };
  const idOf = (req: Request): string | undefined => {
    const id = (req.cookies as Record<string, string> | undefined)?.[SESSION_COOKIE];
    return typeof id === 'string' && id.length > 0 ? id : undefined;
  };

  function expiries(tokens: identityV1.SessionTokens, at: number, cap: number) {
    return {
      accessExpiresAt: new Date(at + tokens.expiresIn * 1000),
      refreshExpiresAt: new Date(Math.min(cap, at + tokens.refreshExpiresIn * 1000)),
    };
  }

  async function refresh(key: string, doc: SessionDoc): Promise<SessionDoc | undefined> {
    try {
      const out = await identity.refreshSession({
        refreshToken: doc.refreshToken,
        clientId: doc.clientId,
        userId: doc.userId,
      });
      const at = now();
      const fields = {
        accessToken: out.tokens!.accessToken,
        refreshToken: out.tokens!.refreshToken,
        ...expiries(out.tokens!, at, doc.expiresAt.getTime()),
        username: out.user!.username,
        roles: rolesOf(out.user!),
      };
      await store.update(key, fields);
      return { ...doc, ...fields };
    } catch (err) {
      if (isServiceError(err) && err.code === GrpcStatus.UNAUTHENTICATED) {
        await store.remove(key);
        return undefined;
      }
      // Identity or Keycloak briefly away: the session stays good until Keycloak's own idle limit.
      log.warn({ err }, 'session refresh failed; keeping the session for now');
      return doc;
    }
  }

  function refreshOnce(key: string, doc: SessionDoc): Promise<SessionDoc | undefined> {
    let p = refreshing.get(key);
    if (!p) {
      p = refresh(key, doc).finally(() => refreshing.delete(key));
      refreshing.set(key, p);
    }
    return p;
  }

  const manager: SessionManager = {
    async resolve(req, res): Promise<Caller | undefined> {
      const id = idOf(req);
      if (!id) return undefined;
      if (!SESSION_ID.test(id)) {
        clearCookie(res);
        return undefined;
      }
      const key = keyOf(id);
      let doc: SessionDoc | null | undefined = await store.get(key);
      const at = now();
      if (doc && (doc.expiresAt.getTime() <= at || doc.refreshExpiresAt.getTime() <= at)) {
        await store.remove(key);
        doc = undefined;
      }
      if (doc && doc.accessExpiresAt.getTime() - REFRESH_MARGIN_MS <= at) doc = await refreshOnce(key, doc);
      if (!doc) {
        clearCookie(res);
        return undefined;
      }
      return { userId: doc.userId, username: doc.username, roles: doc.roles };
    },

    async create(req, res, { user, tokens }) {
      const id = randomBytes(32).toString('base64url');
      const at = now();
      const expiresAt = at + opts.maxAgeSeconds * 1000;
      await store.insert({
        _id: keyOf(id),
        userId: user.id,
        username: user.username,
        roles: rolesOf(user),
        clientId: tokens.clientId,
        accessToken: tokens.accessToken,
        refreshToken: tokens.refreshToken,
        ...expiries(tokens, at, expiresAt),
        expiresAt: new Date(expiresAt),
        createdAt: new Date(at),
        userAgent: (req.get('user-agent') ?? '').slice(0, 300),
      });
      res.cookie(SESSION_COOKIE, id, { ...cookieOptions(), maxAge: opts.maxAgeSeconds * 1000 });
    },

    async destroy(req, res) {
      const id = idOf(req);
      if (id) clearCookie(res);
      if (!id || !SESSION_ID.test(id)) return undefined;
      const doc = await store.remove(keyOf(id));
      return doc ? { refreshToken: doc.refreshToken, clientId: doc.clientId } : undefined;
    },

    sweep: () => store.sweep(new Date(now())),

    start() {
      if (timer) return;
      timer = setInterval(() => {
        manager.sweep().catch((err: unknown) => log.warn({ err }, 'session sweep failed'));
      }, opts.sweepIntervalMs);
      timer.unref();
    },

    async close() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await store.close();
    },
  };
  return manager;
}
