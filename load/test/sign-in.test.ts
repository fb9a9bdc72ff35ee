import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signIn, signOut } from '../lib/sign-in.cjs';

// The gateway's answers are played by a server on loopback: what is checked here is how the tools read
// them (cookies, refusals), not the sign-in itself, which the e2e and integration suites cover.
let server: Server;
let base: string;
const seen: { method?: string; url?: string; origin?: string; cookie?: string; body: string }[] = [];
let answer: (req: IncomingMessage) => { status: number; cookies?: string[]; body: string };

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({
        method: req.method,
        url: req.url,
        origin: req.headers.origin,
        cookie: req.headers.cookie,
        body,
      });
      const { status, cookies = [], body: out } = answer(req);
      res.writeHead(status, { 'content-type': 'application/json', 'set-cookie': cookies }).end(out);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => (seen.length = 0));

describe('signIn', () => {
  it('posts the credentials with Origin and answers the user and the session as a Cookie header', async () => {
    answer = () => ({
      status: 200,
      cookies: ['qm_session=a.b=c; Path=/; HttpOnly; SameSite=Lax', 'qm_csrf=x; Path=/'],
      body: JSON.stringify({ user: { id: 3, username: 'maker_demo', role: 'Manufacturer' } }),
    });
    const signedIn = await signIn(base, 'maker_demo', 'Maker@12345');
    expect(seen).toEqual([
      {
        method: 'POST',
        url: '/api/login',
        origin: base,
        cookie: undefined,
        body: JSON.stringify({ username: 'maker_demo', password: 'Maker@12345', portal: 'user' }),
      },
    ]);
    expect(signedIn.user).toEqual({ id: 3, username: 'maker_demo', role: 'Manufacturer' });
    // A value holding '=' is kept whole.
    expect(signedIn.cookie).toBe('qm_session=a.b=c; qm_csrf=x');
    expect(signedIn.cookies).toEqual([
      { name: 'qm_session', value: 'a.b=c' },
      { name: 'qm_csrf', value: 'x' },
    ]);
  });

  it('says who was refused, with the status and the answer', async () => {
    answer = () => ({ status: 400, body: '{"message":"Invalid username or password"}' });
    await expect(signIn(base, 'army_demo', 'wrong', 'admin')).rejects.toThrow(
      'sign-in as army_demo: 400 {"message":"Invalid username or password"}',
    );
    expect(JSON.parse(seen[0]!.body)).toMatchObject({ portal: 'admin' });
  });

  it('refuses an answer without a session cookie', async () => {
    answer = () => ({ status: 200, body: JSON.stringify({ user: { id: 1 } }) });
    await expect(signIn(base, 'admin', 'Admin@12345')).rejects.toThrow('no session cookie');
  });

  it('reaches nothing but loopback', async () => {
    await expect(signIn('http://example.com', 'admin', 'Admin@12345')).rejects.toThrow(
      'refusing to reach anything but loopback',
    );
  });
});

describe('signOut', () => {
  it('posts the session to /api/logout with Origin', async () => {
    answer = () => ({ status: 200, body: '{}' });
    await signOut(base, 'qm_session=s');
    expect(seen).toMatchObject([
      { method: 'POST', url: '/api/logout', origin: base, cookie: 'qm_session=s' },
    ]);
  });

  it('says what the gateway answered when it refuses', async () => {
    answer = () => ({ status: 403, body: '{"message":"Cross-site request refused"}' });
    await expect(signOut(base, 'qm_session=s')).rejects.toThrow('sign-out: 403');
  });
});
