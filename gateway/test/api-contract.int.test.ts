import { headerSessions, json, startGateway } from '@qm/testkit/src/gateway';

/**
 * The REST contract as a client sees it (docs/architecture.md §2): out-of-range numbers are a 400 before any
 * service is called, undeclared methods a 405 with Allow, and the OpenAPI document lists every
 * status a route answers. No service is configured: a request that got past validation would be
 * a 503.
 */
const army = { userId: 7, username: 'sepoy', roles: ['Army' as const] };
const admin = { userId: 1, username: 'admin', roles: ['Admin' as const] };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = { paths: Record<string, Record<string, { responses: Record<string, any> }>> };

describe('REST contract', () => {
  let gw: Awaited<ReturnType<typeof startGateway>>;
  const call = (path: string, init: RequestInit & { as?: string } = {}) =>
    fetch(`${gw.url}${path}`, {
      ...init,
      headers: { ...(init.as ? { 'x-test-user': init.as } : {}), ...(init.headers ?? {}) },
    });

  beforeAll(async () => {
    gw = await startGateway({}, headerSessions({ army, admin }));
  });
  afterAll(() => gw.stop());

  it.each([
    ['/api/products?page=383906447583795', 'army', 'Page must be at most 1,000,000'],
    ['/api/products?page=1000001', 'army', 'Page must be at most 1,000,000'],
    ['/api/products?pageSize=101', 'army', 'Page size must be between 1 and 100'],
    ['/api/products/9007199254740992', 'army', 'Product id is too large'],
    ['/api/products/1e300', 'army', 'Product id is too large'],
    ['/api/users/99999999999999999999', 'admin', 'User id is too large'],
  ])('refuses %s with a 400 and a clear message', async (path, as, message) => {
    const res = await call(path, { as });
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ message });
  });

  it('bounds numbers in every location: path ids of state-changing routes too', async () => {
    const res = await call('/api/users/12345678901234567890/status', {
      as: 'admin',
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'approved' }),
    });
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ message: 'User id is too large' });
  });

  it("bounds a product edit's version in the document, so no schema-valid version is refused", async () => {
    const doc = await json(await fetch(`${gw.url}/api/openapi.json`));
    const version =
      doc.paths['/api/products/{id}'].patch.requestBody.content['application/json'].schema.properties.version;
    expect(version).toMatchObject({ type: 'integer', maximum: Number.MAX_SAFE_INTEGER });
    const res = await call('/api/products/1', {
      as: 'army',
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ stock: 1, version: 16378326054216766 }),
    });
    expect(res.status).toBe(400);
  });

  it('still lets the largest page through to the service', async () => {
    expect((await call('/api/products?page=1000000&pageSize=100', { as: 'army' })).status).toBe(503);
  });

  it('answers an undeclared method on a declared path with 405 and Allow, signed in or not', async () => {
    for (const as of ['army', undefined]) {
      const res = await call('/api/products', { as, method: 'DELETE' });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS');
      expect((await json(res)).message).toMatch(/DELETE is not allowed/);
    }
    const put = await call('/api/products/1', { as: 'army', method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, PATCH, DELETE, HEAD, OPTIONS');
    const get = await call('/api/login');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it('answers OPTIONS with Allow, and unknown paths with 404 whatever the method', async () => {
    const options = await call('/api/users/3', { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, DELETE, HEAD, OPTIONS');
    for (const method of ['GET', 'DELETE']) {
      const res = await call('/api/nope', { as: 'army', method });
      expect(res.status).toBe(404);
    }
  });

  it('refuses text with a NUL character in a body or a query, before any service sees it', async () => {
    const login = await call('/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'army\u0000x', password: 'Secret@123' }),
    });
    expect(login.status).toBe(400);
    expect(await json(login)).toEqual({ message: 'Text must not contain NUL characters' });
    const search = await call('/api/products?q=a%00b', { as: 'army' });
    expect(search.status).toBe(400);
  });

  it('reads a body only on routes that take one', async () => {
    const res = await call('/api/logout', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{oops',
    });
    expect(res.status).toBe(200);
    const bad = await call('/api/products', {
      as: 'army',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{oops',
    });
    expect(bad.status).toBe(400);
  });

  it('refuses a caller without access before the rate limit counts them', async () => {
    // The description generator allows 30 a minute per client; anonymous calls must not use them up.
    for (let i = 0; i < 35; i++) {
      const res = await call('/api/ai/generate-description', { method: 'POST' });
      expect(res.status).toBe(401);
    }
  });

  describe('OpenAPI document', () => {
    let doc: Doc;
    const statuses = (path: string, method: string) =>
      Object.keys(doc.paths[path]![method]!.responses).sort();
    beforeAll(async () => {
      doc = await json(await fetch(`${gw.url}/api/openapi.json`));
    });

    it('lists what the gateway derives from a route: input, access, method, body, rate limit', () => {
      expect(statuses('/api/products', 'get')).toEqual(['200', '400', '401', '403', '503', '504']);
      expect(statuses('/api/products', 'post')).toEqual(['201', '400', '401', '403', '413', '503', '504']);
      expect(statuses('/api/auth/config', 'get')).toEqual(['200', '503', '504']);
      expect(statuses('/api/logout', 'post')).toEqual(['200', '403', '503', '504']);
      expect(statuses('/api/ai/generate-description', 'post')).toContain('429');
      expect(statuses('/api/login', 'post')).toEqual([
        '200',
        '400',
        '401',
        '403',
        '413',
        '429',
        '503',
        '504',
      ]);
    });

    it("adds the service's own refusals declared with the route", () => {
      expect(statuses('/api/products/{id}', 'patch')).toContain('404');
      expect(statuses('/api/users/{userId}/status', 'patch')).toEqual(expect.arrayContaining(['404', '409']));
      expect(statuses('/api/register', 'post')).toContain('409');
      expect(doc.paths['/api/products/{id}']!.delete!.responses['404']).toMatchObject({
        description: 'Product not found',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      });
    });

    it('marks a body required exactly when the route refuses an empty one', () => {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const body = (path: string, method: string) => (doc.paths[path]![method] as any).requestBody;
      expect(body('/api/products', 'post').required).toBe(true);
      expect(body('/api/request-password-reset', 'post').required).toBe(true);
      expect(body('/api/user/profile', 'patch').required).toBe(false);
    });

    it('states the rules the validators check in code, so schema-valid input is accepted', () => {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const schema = (path: string, method: string): any =>
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        (doc.paths[path]![method] as any).requestBody.content['application/json'].schema;
      const update = schema('/api/products/{id}', 'patch');
      expect(update.anyOf).toContainEqual({ required: ['price'] });
      expect(update.properties.name).toMatchObject({ minLength: 1, maxLength: 200, pattern: '\\S' });
      expect(update.properties.stock).toMatchObject({ type: 'integer', minimum: 0, maximum: 1_000_000 });
      expect(schema('/api/users/{userId}/status', 'patch').anyOf).toHaveLength(2);
      expect(schema('/api/register', 'post').properties.email.pattern).toBeDefined();
      expect(schema('/api/user/activity', 'post').properties.details.type).toContain('object');
    });

    it("states sign-in's password rule as the server applies it: 6 characters, or 1 on the admin portal", async () => {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const login = (doc.paths['/api/login']!.post as any).requestBody.content['application/json'].schema;
      // Valid exactly when portal is "admin" or the password has at least 6 characters.
      expect(login.anyOf).toEqual([
        { properties: { portal: { const: 'admin' } }, required: ['portal'] },
        { properties: { password: { minLength: 6 } } },
      ]);
      const signIn = async (body: object) =>
        (
          await call('/api/login', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          })
        ).status;
      // Refused as the document says (400), or let through to the (absent) identity service: 503.
      expect(await signIn({ username: 'sepoy', password: '12345' })).toBe(400);
      expect(await signIn({ username: 'sepoy', password: '12345', portal: 'user' })).toBe(400);
      expect(await signIn({ username: 'sepoy', password: '123456' })).toBe(503);
      expect(await signIn({ username: 'admin', password: '1', portal: 'admin' })).toBe(503);
    });

    it("accepts a contact email exactly when the document's schema does", async () => {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const contact = (doc.paths['/api/contact']!.post as any).requestBody.content['application/json'].schema;
      const email = contact.properties.email;
      // No `format: email`: validators disagree on it (schemathesis refuses an apostrophe zod allows).
      expect(email.format).toBeUndefined();
      const documented = (value: string) =>
        value.length <= email.maxLength && new RegExp(email.pattern as string).test(value);
      const cases = [
        'asha@example.test',
        "o'neil@example.test",
        ' asha@example.test',
        'asha@example.test ',
        'asha@example.test\n',
        'asha@example',
        'asha..b@example.test',
        `${'a'.repeat(250)}@b.co`,
      ];
      for (const [i, value] of cases.entries()) {
        const res = await call('/api/contact', {
          method: 'POST',
          // Each from its own client address (loopback is a trusted proxy), clear of the contact limit.
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `192.0.2.${i + 1}` },
          body: JSON.stringify({ fullName: 'Asha', email: value, subject: 'Hello', message: 'Hi' }),
        });
        // 503: valid, and on to the (absent) support service.
        expect([value, res.status]).toEqual([value, documented(value) ? 503 : 400]);
      }
    });

    it('documents the bounds, so clients and fuzzers know them', () => {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const params = (doc.paths['/api/products']!.get as any).parameters as any[];
      expect(params.find((p) => p.name === 'page').schema).toMatchObject({ minimum: 1, maximum: 1_000_000 });
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const id = (doc.paths['/api/users/{id}']!.get as any).parameters[0];
      expect(id.schema).toMatchObject({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
    });
  });
});
