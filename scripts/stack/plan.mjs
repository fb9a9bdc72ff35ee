// What the local stack consists of: commands, environment, ports and health checks of every process.
// Ports and variables follow docs/CONVENTIONS.md; the services and their ports come from @qm/roster.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { grpcHealth, httpCheck, mongoPing, tcpCheck } from './health.mjs';
import { MONGODB_PATH_ENV } from '../mongodb-path.mjs';
import { POSTGRES_URL, postgresSpec } from './postgres.mjs';

/** The services of packages/roster/roster.json (the one list; docs/CONVENTIONS.md). */
export const ROSTER = JSON.parse(
  readFileSync(new URL('../../packages/roster/roster.json', import.meta.url), 'utf8'),
).services;
export const SERVICES = ROSTER.map((s) => s.name);
/**
 * The committed development key pair for caller assertions (docs/adr/021), given explicitly so that
 * --prod (NODE_ENV=production, where the keys are required) runs too. Not for production.
 */
const DEV_CALLER_KEYS = JSON.parse(
  readFileSync(new URL('../../packages/platform/src/grpc/dev-caller-keys.json', import.meta.url), 'utf8'),
);
export const GRPC_PORT = Object.fromEntries(ROSTER.map((s) => [s.name, s.grpcPort]));
export const FRONTENDS = { shell: 3000, market: 3001, wallet: 3002, admin: 3003 };
export const KEYCLOAK_VERSION = '26.0.8';
export const REALM_FILE = 'k8s/keycloak/realm-quartermaster.json';
/** Keycloak's themes of the realm (its loginTheme, quartermaster); the chart has a copy in its files/. */
export const THEMES_DIR = 'k8s/keycloak/themes';

export const URLS = {
  app: 'http://localhost:8080',
  keycloak: 'http://localhost:8081',
  maildev: 'http://localhost:1080',
  natsMonitoring: 'http://localhost:8222',
  mongo: 'mongodb://localhost:27017',
  traces: 'http://localhost:9411/zipkin/',
};

/** Where the services and the gateway send their spans with --traces (docs/adr/016). */
export const ZIPKIN_SPANS_URL = 'http://127.0.0.1:9411/api/v2/spans';

/**
 * The store engines the services and the gateway can run on (docs/adr/024): the local one, FerretDB
 * v1 on PostgreSQL with its shortcuts (the default), or `mongodb`, the chart's path: the MongoDB API
 * and nothing else, here against the local FerretDB (PostgreSQL still runs under it).
 */
export const STORE_ENGINES = ['ferretdb-postgresql', 'mongodb'];

/**
 * The variables that choose `engine`. For `mongodb` the PostgreSQL URL is `undefined`, which a spawn
 * leaves out: no product process is told about PostgreSQL, not even from the shell's environment.
 */
export function storeEngineVariables(engine = 'ferretdb-postgresql') {
  if (engine === 'mongodb') return { ...MONGODB_PATH_ENV };
  if (engine !== 'ferretdb-postgresql')
    throw new Error(`unknown store engine "${engine}" (known: ${STORE_ENGINES.join(', ')})`);
  // Lets @qm/platform create the indexes FerretDB's PostgreSQL backend can use (docs/adr/004).
  return { QM_STORE_ENGINE: engine, FERRETDB_POSTGRESQL_URL: POSTGRES_URL };
}

/** Variables every Node process of the stack gets (services, gateway, seed). */
export function commonEnv({ storeEngine } = {}) {
  return {
    MONGO_URL: 'mongodb://127.0.0.1:27017',
    ...storeEngineVariables(storeEngine),
    NATS_URL: 'nats://127.0.0.1:4222',
    // Streams, subjects and durables carry it, so another environment on this NATS server is not disturbed.
    EVENTS_PREFIX: process.env.EVENTS_PREFIX || 'dev',
    KEYCLOAK_URL: 'http://127.0.0.1:8081',
    KEYCLOAK_REALM: 'quartermaster',
    SMTP_URL: 'smtp://127.0.0.1:1025',
    MAIL_FROM: 'Quartermaster <no-reply@quartermaster.local>',
    PUBLIC_URL: URLS.app,
  };
}

/** KEY=value lines (# comments, optional quotes, optional `export `). */
export function readEnvFile(file) {
  if (!existsSync(file)) return {};
  const vars = {};
  for (const raw of readFileSync(file, 'utf8').split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const m = line.match(/^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/);
    if (!m) continue;
    let value = m[2];
    if (/^(['"]).*\1$/.test(value)) value = value.slice(1, -1);
    else value = value.replace(/\s+#.*$/, '');
    vars[m[1]] = value;
  }
  return vars;
}

const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

function javaHome() {
  const candidates = [
    process.env.QM_JAVA_HOME,
    '/usr/lib/jvm/java-17-openjdk-amd64',
    '/usr/lib/jvm/java-17-openjdk-arm64',
  ];
  return candidates.find((p) => p && existsSync(path.join(p, 'bin/java'))) ?? process.env.JAVA_HOME;
}

/**
 * Keycloak imports the realm from its distribution's data/import/ on start (only when the realm does
 * not exist yet). Copies the repo's realm there, and warns when the database was created from an
 * older realm file, since Keycloak will not re-import it.
 */
function prepareKeycloak({ root, dataDir, kcHome, log }) {
  const realm = path.join(root, REALM_FILE);
  if (!existsSync(path.join(kcHome, 'bin/kc.sh'))) {
    throw new Error(`Keycloak not found in ${kcHome}: run scripts/provision.sh keycloak`);
  }
  const importDir = path.join(kcHome, 'data/import');
  mkdirSync(importDir, { recursive: true });
  const target = path.join(importDir, path.basename(realm));
  if (!existsSync(target) || sha256(target) !== sha256(realm)) copyFileSync(realm, target);
  const dbDir = path.join(dataDir, 'keycloak');
  mkdirSync(dbDir, { recursive: true });
  const stamp = path.join(dbDir, 'realm.sha256');
  const fresh = !existsSync(path.join(dbDir, 'keycloakdb.mv.db'));
  if (fresh) writeFileSync(stamp, `${sha256(realm)}\n`);
  else if (existsSync(stamp) && readFileSync(stamp, 'utf8').trim() !== sha256(realm)) {
    log.warn(
      `${REALM_FILE} changed since ${dbDir} was created; Keycloak keeps the old realm. ` +
        `Delete ${dbDir} (or run make clean) to import the new one.`,
    );
  }
}

function natsSpec({ dataDir, tools }) {
  return {
    name: 'nats',
    command: path.join(tools, 'bin/nats-server'),
    args: [
      '-js',
      '-sd',
      path.join(dataDir, 'nats'),
      '-a',
      '127.0.0.1',
      '-p',
      '4222',
      '-m',
      '8222',
      '-n',
      'qm-local',
    ],
    ports: [4222, 8222],
    check: () => httpCheck('http://127.0.0.1:8222/healthz'),
    timeoutMs: 30000,
  };
}

function ferretdbSpec({ dataDir, tools }) {
  return {
    name: 'ferretdb',
    command: path.join(tools, 'bin/ferretdb'),
    // FerretDB v1 on PostgreSQL: indexed reads stay flat as collections grow (docs/adr/004). It
    // connects lazily, so it may start beside PostgreSQL; services wait for both to be healthy.
    args: [
      '--handler=postgresql',
      `--postgresql-url=${POSTGRES_URL}`,
      '--listen-addr=127.0.0.1:27017',
      '--telemetry=disable',
      `--state-dir=${path.join(dataDir, 'ferretdb')}`,
      '--debug-addr=-',
    ],
    // Its heap is small (tens of MiB) and each command leaves much short-lived garbage, so with Go's
    // default GOGC=100 collection took 23 % of its CPU under purchases; 400 halves that for a few MiB.
    env: { GOGC: '400' },
    ports: [27017],
    prepare: () => mkdirSync(path.join(dataDir, 'ferretdb'), { recursive: true }),
    check: () => mongoPing('mongodb://127.0.0.1:27017'),
    timeoutMs: 30000,
  };
}

function keycloakSpec({ root, dataDir, kcHome, log }) {
  return {
    name: 'keycloak',
    command: path.join(kcHome, 'bin/kc.sh'),
    args: [
      'start-dev',
      '--http-host=127.0.0.1',
      '--http-port=8081',
      // One issuer whichever way Keycloak is reached (browser via localhost, services via 127.0.0.1).
      '--hostname=http://localhost:8081',
      '--hostname-backchannel-dynamic=true',
      '--import-realm',
      // The realm's login theme (k8s/keycloak/themes/quartermaster), read from the checkout: edits show
      // on the next page load, as the theme and template caches are off (start-dev's own default).
      `--spi-theme-folder-dir=${path.join(root, THEMES_DIR)}`,
      '--spi-theme-cache-themes=false',
      '--spi-theme-cache-templates=false',
      // Brute-force detection would refuse every sign-in but one while another of the same account is
      // under way (docs/adr/029); failures are still counted and lock the account.
      '--spi-brute-force-protector-default-brute-force-detector-allow-concurrent-requests=true',
      '--db=dev-file',
      // NON_KEYWORDS=VALUE is what Keycloak adds to its own default H2 URL; without it migrations fail.
      `--db-url=jdbc:h2:file:${path.join(dataDir, 'keycloak', 'keycloakdb')};NON_KEYWORDS=VALUE;DB_CLOSE_ON_EXIT=FALSE`,
    ],
    env: {
      JAVA_HOME: javaHome(),
      KC_BOOTSTRAP_ADMIN_USERNAME: 'admin',
      KC_BOOTSTRAP_ADMIN_PASSWORD: 'admin',
    },
    ports: [8081],
    prepare: () => prepareKeycloak({ root, dataDir, kcHome, log }),
    check: () => httpCheck('http://127.0.0.1:8081/realms/quartermaster/.well-known/openid-configuration'),
    timeoutMs: 180000,
    stopTimeoutMs: 20000,
  };
}

function maildevSpec({ dataDir, bin }) {
  return {
    name: 'maildev',
    command: bin('maildev'),
    args: [
      '--smtp',
      '1025',
      '--web',
      '1080',
      '--ip',
      '127.0.0.1',
      '--mail-directory',
      path.join(dataDir, 'maildev'),
    ],
    ports: [1025, 1080],
    prepare: () => mkdirSync(path.join(dataDir, 'maildev'), { recursive: true }),
    check: async () => {
      const smtp = await tcpCheck(1025);
      return smtp === true ? httpCheck('http://127.0.0.1:1080/healthz') : smtp;
    },
    timeoutMs: 30000,
  };
}

/**
 * The trace viewer (--traces): Zipkin's server with its UI, keeping spans in memory only, on
 * loopback. The JIT's first tier only: it starts in seconds and a viewer needs no peak speed.
 */
function zipkinSpec({ tools }) {
  return {
    name: 'zipkin',
    command: path.join(javaHome() ?? '/usr', 'bin/java'),
    args: [
      '-Xms64m',
      '-Xmx256m',
      '-XX:+UseSerialGC',
      '-XX:TieredStopAtLevel=1',
      '-jar',
      path.join(tools, 'zipkin-server.jar'),
      '--armeria.ports[0].ip=127.0.0.1',
      '--armeria.ports[0].port=9411',
      '--armeria.ports[0].protocols=http',
      '--spring.main.banner-mode=off',
      '--logging.level.root=WARN',
    ],
    env: { STORAGE_TYPE: 'mem', MEM_MAX_SPANS: '200000' },
    ports: [9411],
    check: () => httpCheck('http://127.0.0.1:9411/health'),
    timeoutMs: 90000,
  };
}

/** NATS, PostgreSQL, FerretDB, Keycloak and MailDev (and Zipkin with --traces): they start together. */
function infraTier(ctx) {
  const tier = [
    natsSpec(ctx),
    postgresSpec({ dataDir: ctx.dataDir, tools: ctx.tools }),
    ferretdbSpec(ctx),
    keycloakSpec(ctx),
    maildevSpec(ctx),
    ...(ctx.traces ? [zipkinSpec(ctx)] : []),
  ];
  for (const p of tier) p.env = { ...ctx.base, ...p.env };
  return tier;
}

/**
 * Replica k (1-based) of a process: the first keeps the plain name and port, the k-th is `<name>-k`
 * on the port + 100·(k−1) (docs/adr/025).
 */
export function replicaName(name, k) {
  return k === 1 ? name : `${name}-${k}`;
}
export const replicaPort = (port, k) => port + 100 * (k - 1);

/** `<NAME>_GRPC_ADDR` of every service: one address, or the replicas' list the gRPC clients balance over. */
function grpcAddresses(services, replicas) {
  return Object.fromEntries(
    services.map(({ name }) => [
      `${name.toUpperCase()}_GRPC_ADDR`,
      Array.from({ length: replicas }, (_, i) => `127.0.0.1:${replicaPort(GRPC_PORT[name], i + 1)}`).join(
        ',',
      ),
    ]),
  );
}

function serviceSpec(
  { root, base, run, replicas, storeEngine },
  { name: service, grpcPort, database },
  k,
  addresses,
) {
  const name = replicaName(service, k);
  const port = replicaPort(grpcPort, k);
  return {
    name,
    ...run(`services/${service}`),
    env: {
      ...base,
      ...commonEnv({ storeEngine }),
      ...(service === 'identity'
        ? {
            KEYCLOAK_CLIENT_ID: 'qm-identity',
            KEYCLOAK_CLIENT_SECRET: 'qm-identity-dev-secret',
            // The local stack's documented admin password (README); --prod runs with NODE_ENV=production,
            // where identity insists on being given one.
            ADMIN_PASSWORD: process.env.ADMIN_PASSWORD ?? 'Admin@12345',
          }
        : {}),
      // The sandbox's signing secret: --prod runs with NODE_ENV=production, where the wallet insists on one.
      ...(service === 'wallet'
        ? {
            SANDBOX_SIGNING_SECRET:
              process.env.SANDBOX_SIGNING_SECRET ?? 'local-dev-sandbox-signing-secret-not-for-production',
          }
        : {}),
      // Service identity between internal services (docs/adr/005); never given to the gateway.
      INTERNAL_TOKEN: process.env.INTERNAL_TOKEN ?? 'local-dev-internal-token-not-for-production',
      // Verifies the gateway's caller assertions (docs/adr/021); the private key stays with the gateway.
      CALLER_VERIFY_KEY: process.env.CALLER_VERIFY_KEY ?? DEV_CALLER_KEYS.verifyKey,
      // Loopback only, also with --prod (production's default is every interface).
      GRPC_HOST: '127.0.0.1',
      GRPC_PORT: String(port),
      MONGO_DB: database,
      // The other services' replicas (one each unless REPLICAS says more).
      ...(replicas > 1 ? addresses : {}),
      ...readEnvFile(path.join(root, 'services', service, '.env.dev')),
      // The engine chosen for the stack wins over a .env.dev: it is the code under test.
      ...storeEngineVariables(storeEngine),
    },
    ports: [port],
    check: () => grpcHealth(`127.0.0.1:${port}`),
    timeoutMs: 90000,
  };
}

/** The roster's services in port order, less the planned ones (no code yet). */
function serviceTier(ctx) {
  const tier = [];
  for (const service of ROSTER.filter((s) => !s.planned)) {
    if (!existsSync(path.join(ctx.root, 'services', service.name, 'src/main.ts'))) {
      ctx.log.warn(
        `services/${service.name}/src/main.ts is missing although the roster lists ${service.name} as built; not started`,
      );
      continue;
    }
    ctx.built.push(service);
  }
  const addresses = grpcAddresses(ctx.built, ctx.replicas);
  for (let k = 1; k <= ctx.replicas; k++)
    for (const service of ctx.built) tier.push(serviceSpec(ctx, service, k, addresses));
  return tier;
}

/** The gateway's replica k: the first on 8080 and 9464, the k-th on 8080 + 10·(k−1) and 9464 + k − 1. */
export const gatewayPorts = (k) => ({ port: 8080 + 10 * (k - 1), metricsPort: 9464 + k - 1 });

function gatewaySpec({ root, base, run, prod, built, replicas, storeEngine }, k) {
  const { port, metricsPort } = gatewayPorts(k);
  return {
    name: replicaName('gateway', k),
    ...run('gateway'),
    env: {
      ...base,
      ...commonEnv({ storeEngine }),
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      ...(prod ? { FRONTEND_DIST: path.join(root, 'frontends') } : { FRONTEND_DEV: '1' }),
      SESSION_SECRET: process.env.SESSION_SECRET ?? 'local-dev-session-secret-not-for-production',
      CALLER_SIGNING_KEY: process.env.CALLER_SIGNING_KEY ?? DEV_CALLER_KEYS.signingKey,
      // Only the services this checkout has: /readyz checks every address it is given.
      ...grpcAddresses(built, replicas),
      ...readEnvFile(path.join(root, 'gateway/.env.dev')),
      ...storeEngineVariables(storeEngine),
    },
    ports: [port, metricsPort],
    check: () => httpCheck(`http://127.0.0.1:${port}/healthz`),
    timeoutMs: 90000,
  };
}

/** The frontends' dev servers (with --prod the gateway serves their dist/ folders instead). */
function frontendTier({ root, base, log }) {
  const tier = [];
  for (const [name, port] of Object.entries(FRONTENDS)) {
    const pkgFile = path.join(root, 'frontends', name, 'package.json');
    const pkg = existsSync(pkgFile) ? JSON.parse(readFileSync(pkgFile, 'utf8')) : undefined;
    if (!pkg?.scripts?.dev) {
      log.warn(`frontends/${name} has no "dev" script yet: skipped`);
      continue;
    }
    tier.push({
      name: `fe-${name}`,
      command: 'npm',
      args: ['run', 'dev', '-w', pkg.name],
      env: { ...base, PORT: String(port) },
      ports: [port],
      // Any HTTP answer means the dev server is up (it may answer 404 on / for a remote).
      check: async () => {
        const v4 = await httpCheck(`http://127.0.0.1:${port}/`, { accept: () => true });
        return v4 === true ? true : httpCheck(`http://[::1]:${port}/`, { accept: () => true });
      },
      timeoutMs: 180000,
    });
  }
  return tier;
}

function warnMissingDists({ root, log }) {
  for (const name of Object.keys(FRONTENDS)) {
    if (!existsSync(path.join(root, 'frontends', name, 'dist'))) {
      log.warn(`frontends/${name}/dist is missing: build it (npm run build -w @qm/frontend-${name})`);
    }
  }
}

/**
 * The processes to run, grouped in tiers: a tier starts once the previous one is healthy, the
 * processes of a tier start together, and stopping goes through the tiers in reverse.
 */
export function planStack({
  root,
  dataDir,
  infraOnly = false,
  appsOnly = false,
  replicas = 1,
  frontends = true,
  prod = false,
  traces = false,
  storeEngine = 'ferretdb-postgresql',
  log,
}) {
  storeEngineVariables(storeEngine); // refuses an unknown engine before anything starts
  const tools = path.join(root, '.tools');
  const bin = (name) => path.join(root, 'node_modules/.bin', name);
  const ctx = {
    root,
    dataDir,
    prod,
    traces,
    log,
    tools,
    kcHome: path.join(tools, `keycloak-${KEYCLOAK_VERSION}`),
    bin,
    base: {
      ...process.env,
      NODE_ENV: prod ? 'production' : 'development',
      // Every service and the gateway export their spans to the viewer (an OTLP collector of your
      // own: set OTEL_EXPORTER_OTLP_ENDPOINT in the shell instead, or as well).
      ...(traces ? { OTEL_EXPORTER_ZIPKIN_ENDPOINT: ZIPKIN_SPANS_URL } : {}),
    },
    run: prod
      ? bundled(root)
      : (dir) => ({ command: bin('tsx'), args: ['watch', '--clear-screen=false', `${dir}/src/main.ts`] }),
    replicas,
    storeEngine,
    built: [],
  };
  // appsOnly: the infrastructure is already running (another stack's, e.g. `make infra`).
  const tiers = appsOnly ? [] : [infraTier(ctx)];
  if (infraOnly) return tiers;

  const services = serviceTier(ctx);
  if (services.length) tiers.push(services);

  if (existsSync(path.join(root, 'gateway/src/main.ts')))
    tiers.push(Array.from({ length: replicas }, (_, i) => gatewaySpec(ctx, i + 1)));
  else log.warn('gateway/src/main.ts does not exist yet: the gateway is skipped');

  if (prod) warnMissingDists(ctx);
  else if (frontends) {
    const tier = frontendTier(ctx);
    if (tier.length) tiers.push(tier);
  }
  return tiers;
}

/**
 * --prod runs what the images run (Dockerfile): each deployable bundled by scripts/bundle.mjs into
 * <dir>/dist/main.js, started by node with source maps, so production mode measures and tests the
 * chart's code, not tsx's. The bundles are made once, when the first process is planned.
 */
function bundled(root) {
  let done = false;
  return (dir) => {
    if (!done) {
      const res = spawnSync(process.execPath, [path.join(root, 'scripts/bundle.mjs'), 'all'], {
        cwd: root,
        encoding: 'utf8',
      });
      if (res.status !== 0) throw new Error(`bundling for --prod failed:\n${res.stderr || res.stdout}`);
      done = true;
    }
    return { command: process.execPath, args: ['--enable-source-maps', `${dir}/dist/main.js`] };
  };
}
