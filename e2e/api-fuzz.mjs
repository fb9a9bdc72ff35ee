#!/usr/bin/env node
// API fuzzing (docs/OPERATIONS.md): schemathesis against the running stack's /api/openapi.json with every
// check, once per role: anonymous, Army, Manufacturer, Admin; then, per role, the malformed path escapes
// schemathesis cannot send (malformedAddresses).
//
//   BASE_URL=http://localhost:8080 ADMIN_PASSWORD=Admin@12345 node e2e/api-fuzz.mjs
//
// schemathesis (pinned in scripts/versions.env) comes from `scripts/provision.sh schemathesis`, a
// virtualenv in the tools cache. Setup through the API: registers an Army and a Manufacturer user
// (unique names), approves them as the administrator and signs all three in before any fuzzing, as the
// fuzzer's own sign-in attempts soon meet the sign-in rate limit. Requests carry the session cookie and
// the Origin a browser sends (the CSRF check refuses cookie-carrying writes without it). Operations
// left out, and why, are in EXCLUDED; checks that cannot hold somewhere, in e2e/schemathesis.toml (both
// in the README). FUZZ_MAX_EXAMPLES, FUZZ_SEED and FUZZ_ROLES tune a run.
// Last line: `api fuzz: N passed, M failed` (one per role); exits non-zero on any failure.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { report } from './lib/report.mjs';

const BASE_URL = (process.env.BASE_URL ?? 'http://localhost:8080').replace(/\/$/, '');
const ADMIN_USERNAME = process.env.ADMIN_USERNAME ?? 'admin';
const ADMIN_PASSWORD = process.env.ADMIN_PASSWORD ?? 'Admin@12345';
const MAX_EXAMPLES = process.env.FUZZ_MAX_EXAMPLES ?? '8';
const SEED = process.env.FUZZ_SEED ?? '7';
/** e.g. FUZZ_ROLES=anonymous,Army to fuzz only some roles while working on a finding. */
const ROLES = process.env.FUZZ_ROLES?.split(',');
const CACHE = process.env.QM_CACHE ?? path.join(os.homedir(), '.cache/quartermaster');
const SCHEMATHESIS = path.join(CACHE, 'venv-schemathesis/bin/schemathesis');
/** Checked-in settings: the operations where a check cannot hold, each with its reason. */
const CONFIG = path.join(path.dirname(fileURLToPath(import.meta.url)), 'schemathesis.toml');

/**
 * Operations a role does not fuzz. The anonymous run covers sign-in and sign-out; a signed-in run
 * would end its own session there.
 */
const EXCLUDED = {
  signedIn: [
    ['POST', '/api/logout', 'ends the session the fuzzer runs with'],
    ['GET', '/api/live', 'a stream that stays open (gateway/test/live.int.test.ts tests it)'],
  ],
};

const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
const PASSWORD = 'Fuzz-Pass-123';

// ---- setup through the API ------------------------------------------------------------------------

/** A cookie-keeping client; answers the session cookie's value with the body. */
function apiClient() {
  let session = '';
  return {
    session: () => session,
    async call(method, url, body, retries = 2) {
      const res = await fetch(`${BASE_URL}${url}`, {
        method,
        headers: {
          Accept: 'application/json',
          Origin: BASE_URL,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...(session ? { Cookie: `qm_session=${session}` } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      for (const c of res.headers.getSetCookie()) {
        const m = /^qm_session=([^;]*)/.exec(c);
        if (m) session = m[1];
      }
      const json = await res.json().catch(() => undefined);
      // The journeys before this may have used up the sign-in limit of the minute: wait it out.
      const wait = Number(res.headers.get('retry-after'));
      if (res.status === 429 && retries > 0 && wait > 0 && wait <= 70) {
        console.log(`${method} ${url}: rate limited, retrying in ${wait} s`);
        await new Promise((r) => setTimeout(r, wait * 1000));
        return this.call(method, url, body, retries - 1);
      }
      if (!res.ok) throw new Error(`${method} ${url}: HTTP ${res.status} ${json?.message ?? ''}`);
      return json;
    },
  };
}

async function signedIn(username, password, portal = 'user') {
  const client = apiClient();
  await client.call('POST', '/api/login', { username, password, portal });
  if (!client.session()) throw new Error(`signing in ${username} set no session cookie`);
  return client.session();
}

async function approvedUser(admin, role) {
  const username = `fuzz_${role.toLowerCase()}_${RUN}`;
  const out = await apiClient().call('POST', '/api/register', {
    username,
    password: PASSWORD,
    confirmPassword: PASSWORD,
    email: `${username}@example.test`,
    firstName: 'Fuzz',
    lastName: role,
    role,
  });
  await admin.call('PATCH', `/api/users/${out.user.id}/status`, { status: 'approved' });
  return signedIn(username, PASSWORD);
}

// ---- fuzzing ---------------------------------------------------------------------------------------

function fuzz(role, session, dir) {
  const config = path.join(dir, `${role}.toml`);
  // The cookie is the document's `session` security scheme, so the auth checks can also take it away.
  const auth = session ? `\n[auth.openapi.session]\napi_key = "${session}"\n` : '';
  writeFileSync(config, readFileSync(CONFIG, 'utf8') + auth);
  const excluded = session ? EXCLUDED.signedIn : [];
  const args = [
    '--config-file',
    config,
    'run',
    `${BASE_URL}/api/openapi.json`,
    '--checks',
    'all',
    '--max-examples',
    MAX_EXAMPLES,
    '--seed',
    SEED,
    '--generation-database',
    'none',
    // One worker: hypothesis' lambda introspection is not thread-safe on Python 3.11 (an internal error).
    '--workers',
    '1',
    '--request-timeout',
    '30',
    '--header',
    `Origin: ${BASE_URL}`,
    '--header',
    'Accept: application/json',
    '--no-color',
    // An operation's name is its method and path, e.g. `GET /api/live` (--exclude-by takes a JSON
    // pointer into the operation instead, so it matched nothing here).
    ...excluded.flatMap(([method, p]) => ['--exclude-name', `${method} ${p}`]),
  ];
  console.log(`\n--- ${role} ---`);
  const r = spawnSync(SCHEMATHESIS, args, {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  process.stdout.write(withoutPytestBanners(r.stdout ?? ''));
  return r.status === 0;
}

/**
 * Schemathesis closes with pytest's banner (`==== 3 warnings in 10.79s ====`), which CI reads as a
 * pytest run that executed no test; the same facts are kept, without the banner's shape.
 */
function withoutPytestBanners(output) {
  return output.replace(/^=+ (.+?) in ([\d.]+s) =+$/gm, 'schemathesis: $1, took $2');
}

/**
 * What schemathesis cannot send: it percent-encodes every value it puts in a path, so a malformed escape
 * (`/api/products/%zz`) never reaches the router, which throws on decoding it. Each operation with a
 * path parameter gets each of these; every answer must be a 4xx with a JSON message.
 */
const MALFORMED_ESCAPES = ['%', '%zz', '%E0%A4', '1%'];

async function malformedAddresses(doc, session) {
  const wrong = [];
  let sent = 0;
  for (const [template, operations] of Object.entries(doc.paths)) {
    if (!template.includes('{')) continue;
    for (const method of Object.keys(operations))
      for (const escape of MALFORMED_ESCAPES) {
        const url = template.replace(/\{[^}]+\}/g, escape);
        const send = () =>
          fetch(`${BASE_URL}${url}`, {
            method: method.toUpperCase(),
            headers: {
              Accept: 'application/json',
              Origin: BASE_URL,
              'Content-Type': 'application/json',
              ...(session ? { Cookie: `qm_session=${session}` } : {}),
            },
            body: method === 'get' || method === 'delete' ? undefined : '{}',
          });
        // A kept-alive connection the server closed while idle fails the first send without an answer
        // (undici: "other side closed"): sent once more on a new one. A second failure is a finding.
        const res = await send()
          .catch(send)
          .catch((err) => err);
        sent++;
        if (res instanceof Error) {
          wrong.push(`${method.toUpperCase()} ${url}: no answer (${res.cause?.message ?? res.message})`);
          continue;
        }
        const body = await res.json().catch(() => undefined);
        const fine = res.status >= 400 && res.status < 500 && typeof body?.message === 'string';
        if (!fine) wrong.push(`${method.toUpperCase()} ${url}: HTTP ${res.status} ${JSON.stringify(body)}`);
      }
  }
  console.log(`malformed escapes in paths: ${sent - wrong.length} of ${sent} answered a 4xx with a message`);
  for (const line of wrong) console.log(`  ${line}`);
  return wrong.length === 0;
}

if (!existsSync(SCHEMATHESIS)) {
  console.error(`no schemathesis at ${SCHEMATHESIS}: run scripts/provision.sh schemathesis`);
  report('api fuzz', 0, 1);
}

const admin = apiClient();
await admin.call('POST', '/api/login', {
  username: ADMIN_USERNAME,
  password: ADMIN_PASSWORD,
  portal: 'admin',
});
const sessions = {
  anonymous: '',
  Army: await approvedUser(admin, 'Army'),
  Manufacturer: await approvedUser(admin, 'Manufacturer'),
  // Last: its user deletions could otherwise end the other roles' sessions mid-run.
  Admin: admin.session(),
};

// The same document for every role: only which answers come back differs.
const doc = await (await fetch(`${BASE_URL}/api/openapi.json`)).json();
const dir = mkdtempSync(path.join(os.tmpdir(), 'qm-fuzz-'));
let passed = 0;
let failed = 0;
try {
  for (const [role, session] of Object.entries(sessions)) {
    if (ROLES && !ROLES.includes(role)) continue;
    const fuzzed = fuzz(role, session, dir);
    if ((await malformedAddresses(doc, session)) && fuzzed) passed++;
    else failed++;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
report('api fuzz', passed, failed);
