import type { Logger } from '@qm/platform';

/**
 * Keycloak over its REST endpoints (fetch): the admin API with the identity client's service
 * account, and the OpenID Connect token endpoints (direct grant, refresh, logout, introspection).
 */

export interface KeycloakOptions {
  url: string;
  realm: string;
  clientId: string;
  clientSecret: string;
  /** Public client of the browser's SSO; its refresh tokens are refreshed without a secret. */
  webClientId: string;
  log: Logger;
  timeoutMs?: number;
}

export interface TokenSet {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  refreshExpiresIn: number;
  clientId: string;
}

export interface KeycloakUser {
  id: string;
  username: string;
  email?: string;
  firstName?: string;
  lastName?: string;
  enabled: boolean;
  createdTimestamp?: number;
}

export interface NewKeycloakUser {
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  enabled: boolean;
  password: string;
}

/** Keycloak answered, but not as hoped. `status` is its HTTP status. */
export class KeycloakError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly error?: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'KeycloakError';
  }
}

/** Keycloak could not be reached (down, timeout). */
export class KeycloakUnavailableError extends Error {
  override name = 'KeycloakUnavailableError';
}

export type GrantResult =
  | { ok: true; tokens: TokenSet }
  | { ok: false; reason: 'invalid_credentials' | 'disabled' | 'other'; description: string };

export interface Introspection {
  active: boolean;
  sub?: string;
  azp?: string;
  username?: string;
}

/** The payload of a JWT that came straight from Keycloak's token endpoint (so needs no verification). */
export function jwtPayload(token: string): Record<string, unknown> {
  const part = token.split('.')[1];
  if (!part) return {};
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
}

export class KeycloakClient {
  private serviceToken?: { token: string; expiresAt: number };
  private readonly roleCache = new Map<string, { id: string; name: string }>();
  private readonly base: string;
  private readonly adminBase: string;
  private readonly timeoutMs: number;

  constructor(private readonly opts: KeycloakOptions) {
    const root = opts.url.replace(/\/+$/, '');
    this.base = `${root}/realms/${encodeURIComponent(opts.realm)}/protocol/openid-connect`;
    this.adminBase = `${root}/admin/realms/${encodeURIComponent(opts.realm)}`;
    this.timeoutMs = opts.timeoutMs ?? 5000;
  }

  get webClientId(): string {
    return this.opts.webClientId;
  }

  get clientId(): string {
    return this.opts.clientId;
  }

  // ---- OpenID Connect endpoints ---------------------------------------------------------------

  /** Resource owner password grant with the identity client: checks a username and password. */
  async passwordGrant(username: string, password: string): Promise<GrantResult> {
    const res = await this.post(
      `${this.base}/token`,
      this.confidentialForm({ grant_type: 'password', username, password }),
    );
    const body = (await readJson(res)) as TokenBody;
    if (res.ok) return { ok: true, tokens: toTokens(body, this.opts.clientId) };
    const description = String(body.error_description ?? body.error ?? res.statusText);
    if (res.status >= 500) throw new KeycloakError(res.status, description, body.error);
    if (/disabled/i.test(description)) return { ok: false, reason: 'disabled', description };
    if (body.error === 'invalid_grant') return { ok: false, reason: 'invalid_credentials', description };
    return { ok: false, reason: 'other', description };
  }

  /** New tokens for a refresh token of `clientId` (the identity client or the web client). */
  async refresh(refreshToken: string, clientId: string): Promise<TokenSet> {
    const form =
      clientId === this.opts.clientId
        ? this.confidentialForm({ grant_type: 'refresh_token', refresh_token: refreshToken })
        : new URLSearchParams({
            grant_type: 'refresh_token',
            refresh_token: refreshToken,
            client_id: clientId,
          });
    const res = await this.post(`${this.base}/token`, form);
    const body = (await readJson(res)) as TokenBody;
    if (!res.ok)
      throw new KeycloakError(res.status, String(body.error_description ?? body.error), body.error);
    return toTokens(body, clientId);
  }

  /** Ends the Keycloak session the refresh token belongs to. */
  async logout(refreshToken: string, clientId: string): Promise<void> {
    const form =
      clientId === this.opts.clientId
        ? this.confidentialForm({ refresh_token: refreshToken })
        : new URLSearchParams({ refresh_token: refreshToken, client_id: clientId });
    const res = await this.post(`${this.base}/logout`, form);
    if (!res.ok && res.status !== 400) {
      // 400 is an already ended session: nothing left to end.
      throw new KeycloakError(res.status, `logout failed: ${res.status}`);
    }
  }

  /** Asks Keycloak whether an access token is active and whose it is. */
  async introspect(token: string): Promise<Introspection> {
    const res = await this.post(`${this.base}/token/introspect`, this.confidentialForm({ token }));
    const body = (await readJson(res)) as Record<string, unknown>;
    if (!res.ok) throw new KeycloakError(res.status, `introspection failed: ${res.status}`);
    return {
      active: body.active === true,
      sub: typeof body.sub === 'string' ? body.sub : undefined,
      azp: typeof body.azp === 'string' ? body.azp : undefined,
      username: typeof body.username === 'string' ? body.username : undefined,
    };
  }

  // ---- Admin API ------------------------------------------------------------------------------

  /** Creates a user with a password; answers the new id. Conflicts name the field that clashed. */
  async createUser(user: NewKeycloakUser): Promise<string> {
    const res = await this.admin('POST', '/users', {
      username: user.username,
      email: user.email,
      emailVerified: true,
      firstName: user.firstName,
      lastName: user.lastName,
      enabled: user.enabled,
      requiredActions: [],
      credentials: [{ type: 'password', value: user.password, temporary: false }],
    });
    if (res.status === 201) {
      const id = res.headers.get('location')?.split('/').pop();
      if (id) return id;
      const found = await this.findByUsername(user.username);
      if (found) return found.id;
      throw new KeycloakError(500, 'created user has no id');
    }
    throw await adminError(res);
  }

  async findByUsername(username: string): Promise<KeycloakUser | undefined> {
    const res = await this.admin(
      'GET',
      `/users?exact=true&briefRepresentation=true&username=${encodeURIComponent(username)}`,
    );
    if (!res.ok) throw await adminError(res);
    const list = (await res.json()) as KeycloakUser[];
    return list.find((u) => u.username.toLowerCase() === username.toLowerCase());
  }

  async getUser(id: string): Promise<KeycloakUser | undefined> {
    const res = await this.admin('GET', `/users/${encodeURIComponent(id)}`);
    if (res.status === 404) return undefined;
    if (!res.ok) throw await adminError(res);
    return (await res.json()) as KeycloakUser;
  }

  /** Changes only the fields given. */
  async updateUser(
    id: string,
    fields: Partial<Pick<KeycloakUser, 'email' | 'firstName' | 'lastName' | 'enabled'>>,
  ): Promise<void> {
    const res = await this.admin('PUT', `/users/${encodeURIComponent(id)}`, fields);
    if (!res.ok) throw await adminError(res);
  }

  setEnabled(id: string, enabled: boolean): Promise<void> {
    return this.updateUser(id, { enabled });
  }

  async resetPassword(id: string, password: string): Promise<void> {
    const res = await this.admin('PUT', `/users/${encodeURIComponent(id)}/reset-password`, {
      type: 'password',
      value: password,
      temporary: false,
    });
    if (!res.ok) throw await adminError(res);
  }

  /** Deletes the user; a user already gone is not an error. */
  async deleteUser(id: string): Promise<void> {
    const res = await this.admin('DELETE', `/users/${encodeURIComponent(id)}`);
    if (!res.ok && res.status !== 404) throw await adminError(res);
  }

  /** Ends every session of the user. */
  async logoutUser(id: string): Promise<void> {
    const res = await this.admin('POST', `/users/${encodeURIComponent(id)}/logout`);
    if (!res.ok && res.status !== 404) throw await adminError(res);
  }

  async assignRealmRole(id: string, roleName: string): Promise<void> {
    let role = this.roleCache.get(roleName);
    if (!role) {
      const res = await this.admin('GET', `/roles/${encodeURIComponent(roleName)}`);
      if (!res.ok) throw await adminError(res);
      const rep = (await res.json()) as { id: string; name: string };
      role = { id: rep.id, name: rep.name };
      this.roleCache.set(roleName, role);
    }
    const res = await this.admin('POST', `/users/${encodeURIComponent(id)}/role-mappings/realm`, [role]);
    if (!res.ok) throw await adminError(res);
  }

  async realmRoles(id: string): Promise<string[]> {
    const res = await this.admin('GET', `/users/${encodeURIComponent(id)}/role-mappings/realm`);
    if (!res.ok) throw await adminError(res);
    return ((await res.json()) as { name: string }[]).map((r) => r.name);
  }

  // ---- plumbing -------------------------------------------------------------------------------

  private confidentialForm(fields: Record<string, string>): URLSearchParams {
    return new URLSearchParams({
      ...fields,
      client_id: this.opts.clientId,
      client_secret: this.opts.clientSecret,
    });
  }

  private async post(url: string, form: URLSearchParams): Promise<Response> {
    return this.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
  }

  private async fetch(url: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(url, { ...init, signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (err) {
      this.opts.log.warn({ err, url: url.replace(/\?.*/, '') }, 'keycloak unreachable');
      throw new KeycloakUnavailableError('Keycloak is unreachable');
    }
  }

  private async token(): Promise<string> {
    if (this.serviceToken && this.serviceToken.expiresAt > Date.now() + 10_000)
      return this.serviceToken.token;
    const res = await this.post(
      `${this.base}/token`,
      this.confidentialForm({ grant_type: 'client_credentials' }),
    );
    const body = (await readJson(res)) as TokenBody;
    if (!res.ok || !body.access_token)
      throw new KeycloakError(
        res.status,
        `service account token refused: ${body.error_description ?? res.status}`,
      );
    this.serviceToken = {
      token: body.access_token,
      expiresAt: Date.now() + Number(body.expires_in ?? 60) * 1000,
    };
    return body.access_token;
  }

  private async admin(method: string, path: string, body?: unknown): Promise<Response> {
    const send = async () =>
      this.fetch(`${this.adminBase}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${await this.token()}`,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
    let res = await send();
    if (res.status === 401) {
      this.serviceToken = undefined;
      res = await send();
    }
    return res;
  }
}

interface TokenBody {
  access_token?: string;
  refresh_token?: string;
  expires_in?: number;
  refresh_expires_in?: number;
  error?: string;
  error_description?: string;
}

function toTokens(body: TokenBody, clientId: string): TokenSet {
  if (!body.access_token || !body.refresh_token)
    throw new KeycloakError(500, 'token response without tokens');
  return {
    accessToken: body.access_token,
    refreshToken: body.refresh_token,
    expiresIn: Number(body.expires_in ?? 300),
    refreshExpiresIn: Number(body.refresh_expires_in ?? 1800),
    clientId,
  };
}

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return {};
  try {
    return JSON.parse(text);
  } catch {
    return { error: text.slice(0, 200) };
  }
}

async function adminError(res: Response): Promise<KeycloakError> {
  const body = (await readJson(res)) as { errorMessage?: string; error?: string; field?: string };
  return new KeycloakError(
    res.status,
    String(body.errorMessage ?? body.error ?? `Keycloak answered ${res.status}`),
    body.error,
    body.field,
  );
}
