#!/usr/bin/env node
// Checks the Helm chart (charts/quartermaster) without a cluster:
//  - the chart's copy of the Keycloak realm equals k8s/keycloak/realm-quartermaster.json, and its copy of
//    the realm's login theme equals k8s/keycloak/themes
//  - `helm lint --strict` for the default values and each values-*.yaml
//  - `helm template` for the same value sets (plus one with every service and the ingress on): every
//    document must parse, every object must be a known Kubernetes kind and validate against its schema
//    (kubernetes-models), with no field the schema does not know; then references between objects
//    (selectors, ports, ConfigMaps, Secrets, HPA targets, ingress backends) and the chart's own rules
//    (hardened pods, probes, service configuration) are checked
//  - renders that must fail (missing infrastructure, no gateway, bad kind) do fail
//  - skaffold.yaml builds an image for each service the chart enables and wires it into the release
// Prints `chart-test: N passed, M failed` (N = rendered objects validated) and exits non-zero on failure.
//
// Usage: node scripts/chart-test.mjs [--sync-realm]   (--sync-realm: copy the realm into the chart first)
import { execFileSync, spawnSync } from 'node:child_process';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHART = path.join(ROOT, 'charts', 'quartermaster');
const REALM_SOURCE = path.join(ROOT, 'k8s', 'keycloak', 'realm-quartermaster.json');
const REALM_COPY = path.join(CHART, 'files', 'realm-quartermaster.json');
const THEMES_SOURCE = path.join(ROOT, 'k8s', 'keycloak', 'themes');
const THEMES_COPY = path.join(CHART, 'files', 'keycloak-themes');
const KUBE_VERSION = '1.31.0'; // the helm built from source defaults to 1.20, below the chart's kubeVersion
const RELEASE = 'qm';
const NAMESPACE = 'quartermaster';

let passed = 0;
let failed = 0;
const fail = (what, message) => {
  failed++;
  console.log(`  FAIL ${what}: ${message}`);
};

// ---------------------------------------------------------------- helm
function helmBinary() {
  execFileSync('bash', [path.join(ROOT, 'scripts', 'provision.sh'), 'helm'], { stdio: 'inherit' });
  const cache = process.env.QM_CACHE || path.join(os.homedir(), '.cache', 'quartermaster');
  const helm = path.join(cache, 'bin', 'helm');
  if (!existsSync(helm)) throw new Error(`chart-test: ${helm} missing after scripts/provision.sh helm`);
  return helm;
}

function helm(bin, args) {
  const r = spawnSync(bin, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return {
    ok: r.status === 0,
    stdout: r.stdout ?? '',
    stderr: (r.stderr ?? '') + (r.error ? String(r.error) : ''),
  };
}

// ---------------------------------------------------------------- schema validation
const modelCache = new Map();
/** The kubernetes-models class for apiVersion + kind, or undefined for an unknown kind. */
function modelFor(apiVersion, kind) {
  const key = `${apiVersion}/${kind}`;
  if (!modelCache.has(key)) {
    let model;
    if (typeof apiVersion === 'string' && /^[A-Za-z]+$/.test(String(kind))) {
      try {
        model = require(`kubernetes-models/${apiVersion}/${kind}`)[kind];
      } catch {
        model = undefined;
      }
    }
    modelCache.set(key, model);
  }
  return modelCache.get(key);
}

/**
 * Fields the schema does not know. The generated validators read each property they know; wrapping the
 * object in recording proxies shows which keys were never read. Objects whose keys the validator
 * enumerates (maps such as labels) or never looks into (free-form values) are not judged.
 */
function unknownFields(Model, object) {
  const nodes = [];
  const wrap = (value, at) => {
    if (Array.isArray(value)) return value.map((v, i) => wrap(v, `${at}[${i}]`));
    if (!value || typeof value !== 'object') return value;
    const node = { at, keys: Object.keys(value), read: new Set(), touched: false, enumerated: false };
    nodes.push(node);
    const copy = {};
    for (const k of node.keys) copy[k] = wrap(value[k], at ? `${at}.${k}` : k);
    return new Proxy(copy, {
      get(target, key, receiver) {
        if (typeof key === 'string') {
          node.touched = true;
          node.read.add(key);
        }
        return Reflect.get(target, key, receiver);
      },
      ownKeys(target) {
        node.enumerated = true;
        return Reflect.ownKeys(target);
      },
    });
  };
  Model.prototype.validate.call(wrap(object, ''));
  return nodes
    .filter((n) => n.touched && !n.enumerated)
    .flatMap((n) => n.keys.filter((k) => !n.read.has(k)).map((k) => (n.at ? `${n.at}.${k}` : k)));
}

function validateSchema(object) {
  const Model = modelFor(object.apiVersion, object.kind);
  if (!Model) return [`unknown kind ${object.apiVersion} ${object.kind}`];
  try {
    new Model(object).validate();
  } catch (err) {
    return [`schema: ${err.message}`];
  }
  return unknownFields(Model, object).map((f) => `unknown field ${f}`);
}

// ---------------------------------------------------------------- checks across objects
const podSpecOf = (o) =>
  ['Deployment', 'StatefulSet'].includes(o.kind)
    ? o.spec?.template?.spec
    : o.kind === 'Pod'
      ? o.spec
      : undefined;
const podLabelsOf = (o) => (o.kind === 'Pod' ? o.metadata?.labels : o.spec?.template?.metadata?.labels) ?? {};
const matches = (selector = {}, labels = {}) =>
  Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels[k] === v);

function workloadChecks(o, add, { named }) {
  if (!matches(o.spec.selector?.matchLabels, podLabelsOf(o))) add('selector does not match the pod labels');
  if (o.kind === 'StatefulSet') {
    const headless = named('Service', o.spec.serviceName);
    if (!headless || headless.spec.clusterIP !== 'None')
      add(`serviceName ${o.spec.serviceName} is no headless Service`);
  }
}

/** ConfigMaps and Secrets a container takes its environment from exist (or are external). */
function containerRefChecks(c, at, add, { named, externalSecrets, keysFrom }) {
  for (const ref of c.envFrom ?? []) {
    if (ref.configMapRef && !named('ConfigMap', ref.configMapRef.name))
      add(`${at}: no ConfigMap ${ref.configMapRef.name}`);
    if (
      ref.secretRef &&
      !named('Secret', ref.secretRef.name) &&
      !externalSecrets.includes(ref.secretRef.name)
    )
      add(`${at}: no Secret ${ref.secretRef.name}`);
  }
  for (const e of c.env ?? []) {
    const s = e.valueFrom?.secretKeyRef;
    if (s) {
      const secret = named('Secret', s.name);
      if (!secret && !externalSecrets.includes(s.name)) add(`${at}: env ${e.name}: no Secret ${s.name}`);
      if (keysFrom[s.key] && s.name !== keysFrom[s.key])
        add(`${at}: env ${e.name} is not read from ${keysFrom[s.key]} (secrets.keysFrom)`);
      if (secret && !s.optional && !(s.key in (secret.data ?? {})))
        add(`${at}: env ${e.name}: Secret ${s.name} has no key ${s.key}`);
    }
  }
}

/** Containers of the chart's own services: read-only root, their probes, environment and checksum. */
function ownServiceChecks(o, c, at, add, { named, services }, component, svc) {
  if (c.securityContext?.readOnlyRootFilesystem !== true) add(`${at}: root filesystem is not read-only`);
  const probe = svc.kind === 'grpc' ? 'grpc' : 'httpGet';
  for (const p of ['startupProbe', 'livenessProbe', 'readinessProbe']) {
    if (!c[p]?.[probe]) add(`${at}: ${p} is not a ${probe} probe`);
  }
  if (svc.kind === 'http' && c.readinessProbe?.httpGet?.path !== '/readyz')
    add(`${at}: readiness is not /readyz`);
  if (svc.kind === 'http' && c.livenessProbe?.httpGet?.path !== '/healthz')
    add(`${at}: liveness is not /healthz`);
  const cm = named('ConfigMap', c.envFrom?.find((r) => r.configMapRef)?.configMapRef.name);
  const env = {
    ...(cm?.data ?? {}),
    ...Object.fromEntries((c.env ?? []).map((e) => [e.name, e.value ?? '<secret>'])),
  };
  for (const key of ['MONGO_URL', 'NATS_URL', 'NODE_ENV']) if (!env[key]) add(`${at}: no ${key}`);
  if (env.MONGO_DB !== `qm_${component}`) add(`${at}: MONGO_DB is ${env.MONGO_DB}, not qm_${component}`);
  // The chart runs the MongoDB engine (docs/adr/024): the MongoDB API and no PostgreSQL URL.
  if (env.QM_STORE_ENGINE !== 'mongodb') add(`${at}: QM_STORE_ENGINE is ${env.QM_STORE_ENGINE}, not mongodb`);
  if ('FERRETDB_POSTGRESQL_URL' in env) add(`${at}: has FERRETDB_POSTGRESQL_URL`);
  if (svc.kind === 'grpc' && env.GRPC_PORT !== String(svc.port)) add(`${at}: GRPC_PORT is not ${svc.port}`);
  // Services bind loopback unless told otherwise; in a pod they must listen on its network.
  if (svc.kind === 'grpc' && env.GRPC_HOST !== '0.0.0.0') add(`${at}: GRPC_HOST is not 0.0.0.0`);
  for (const callee of svc.calls ?? []) {
    const c = services[callee];
    if (!c) add(`${at}: calls ${callee}, which is not enabled`);
    else if (c.kind === 'grpc' && !env[`${callee.toUpperCase()}_GRPC_ADDR`]?.endsWith(`-${callee}:${c.port}`))
      add(`${at}: ${callee.toUpperCase()}_GRPC_ADDR does not point at ${callee}:${c.port}`);
  }
  // An in-cluster URL of one of our services (e.g. the wallet's webhook target) names its Service and
  // port, and the caller declares the call (so the NetworkPolicies let it through).
  for (const [key, value] of Object.entries(env)) {
    const m = /^https?:\/\/([a-z0-9-]+):(\d+)(?:\/|$)/.exec(String(value));
    const target = m && Object.entries(services).find(([n]) => m[1] === `${RELEASE}-quartermaster-${n}`);
    if (!target) continue;
    if (String(target[1].port) !== m[2]) add(`${at}: ${key} is not on ${target[0]}'s port ${target[1].port}`);
    if (!(svc.calls ?? []).includes(target[0])) add(`${at}: ${key} reaches ${target[0]}, not in calls`);
  }
  for (const [key, value] of Object.entries(env))
    if (String(value).includes('{{')) add(`${at}: ${key} is an unrendered template`);
  // The sandbox's webhook goes to the gateway in-cluster (the public URL may not resolve inside).
  const webhook = `http://${RELEASE}-quartermaster-gateway:${services.gateway?.port}/api/webhooks/sandbox`;
  if (component === 'wallet' && env.WALLET_WEBHOOK_URL !== webhook)
    add(`${at}: WALLET_WEBHOOK_URL is ${env.WALLET_WEBHOOK_URL}, not ${webhook}`);
  if (component === 'gateway') {
    for (const [other, s] of Object.entries(services)) {
      if (s.kind === 'grpc' && !env[`${other.toUpperCase()}_GRPC_ADDR`]?.endsWith(`-${other}:${s.port}`)) {
        add(`${at}: ${other.toUpperCase()}_GRPC_ADDR does not point at ${other}:${s.port}`);
      }
    }
  }
  if (
    o.metadata?.annotations?.['checksum/config'] === undefined &&
    !o.spec.template.metadata?.annotations?.['checksum/config']
  ) {
    add('no checksum/config annotation');
  }
}

function containerChecks(o, c, add, x, { component, svc, volumes, claims }) {
  const at = `container ${c.name}`;
  const sc = c.securityContext ?? {};
  if (sc.allowPrivilegeEscalation !== false) add(`${at}: allowPrivilegeEscalation is not false`);
  if (!(sc.capabilities?.drop ?? []).includes('ALL')) add(`${at}: capabilities do not drop ALL`);
  if (!c.resources?.requests || !c.resources?.limits) add(`${at}: resources need requests and limits`);
  if (o.kind !== 'Pod' && (!c.livenessProbe || !c.readinessProbe || !c.startupProbe))
    add(`${at}: needs startup, liveness and readiness probes`);
  for (const m of c.volumeMounts ?? []) {
    if (!volumes.has(m.name) && !claims.has(m.name)) add(`${at}: mount of unknown volume ${m.name}`);
  }
  containerRefChecks(c, at, add, x);
  // The internal services' identity secret (docs/adr/005) must never reach the gateway.
  const envNames = new Set((c.env ?? []).map((e) => e.name));
  if (component === 'gateway' && envNames.has('INTERNAL_TOKEN'))
    add(`${at}: the gateway must not receive INTERNAL_TOKEN`);
  // Caller assertions (docs/adr/021): only the gateway may sign them; every gRPC service verifies them.
  if (component !== 'gateway' && envNames.has('CALLER_SIGNING_KEY'))
    add(`${at}: only the gateway may receive CALLER_SIGNING_KEY`);
  if (component === 'gateway' && svc && !envNames.has('CALLER_SIGNING_KEY'))
    add(`${at}: the gateway needs CALLER_SIGNING_KEY`);
  if (svc?.kind === 'grpc' && !envNames.has('CALLER_VERIFY_KEY'))
    add(`${at}: a gRPC service needs CALLER_VERIFY_KEY`);
  if (svc) ownServiceChecks(o, c, at, add, x, component, svc);
}

function podChecks(o, pod, add, x) {
  const component = podLabelsOf(o)['app.kubernetes.io/component'];
  const svc = x.services[component];
  if (pod.securityContext?.runAsNonRoot !== true) add('pod securityContext.runAsNonRoot is not true');
  if (pod.securityContext?.seccompProfile?.type !== 'RuntimeDefault')
    add('pod seccompProfile is not RuntimeDefault');
  if (pod.automountServiceAccountToken !== false) add('service account token is mounted');
  const volumes = new Set((pod.volumes ?? []).map((v) => v.name));
  const claims = new Set((o.spec?.volumeClaimTemplates ?? []).map((c) => c.metadata?.name));
  for (const v of pod.volumes ?? []) {
    if (v.configMap && !x.named('ConfigMap', v.configMap.name))
      add(`volume ${v.name}: no ConfigMap ${v.configMap.name}`);
  }
  for (const c of pod.containers ?? []) containerChecks(o, c, add, x, { component, svc, volumes, claims });
}

function serviceChecks(o, add, { workloads }) {
  const targets = workloads.filter((w) => matches(o.spec.selector, podLabelsOf(w)));
  if (!targets.length) add('selector matches no workload');
  for (const port of o.spec.ports ?? []) {
    if (typeof port.targetPort === 'string') {
      const known = targets.some((w) =>
        w.spec.template.spec.containers.some((c) => (c.ports ?? []).some((p) => p.name === port.targetPort)),
      );
      if (!known) add(`targetPort ${port.targetPort} is no container port`);
    }
  }
  // gRPC clients balance over the pods a headless name resolves to (docs/adr/025); a ClusterIP
  // would pin each client's one connection to one pod.
  if ((o.spec.ports ?? []).some((p) => p.name === 'grpc') && o.spec.clusterIP !== 'None')
    add('a gRPC Service must be headless (clusterIP: None) so that clients balance over its pods');
}

function autoscalerChecks(o, add, { named }) {
  const ref = o.spec.scaleTargetRef;
  const target = named(ref.kind, ref.name);
  if (!target) add(`scale target ${ref.kind}/${ref.name} missing`);
  else if (target.spec.replicas !== undefined) add(`${ref.name} sets replicas although the HPA owns them`);
  if (target && !target.spec.template.spec.containers.every((c) => c.resources?.requests?.cpu))
    add('target has no CPU requests');
}

function ingressChecks(o, add, { named }) {
  for (const rule of o.spec.rules ?? []) {
    for (const p of rule.http?.paths ?? []) {
      const b = p.backend.service;
      const s = named('Service', b.name);
      if (!s) add(`backend ${b.name} missing`);
      else if (
        !s.spec.ports.some((sp) => (b.port.name ? sp.name === b.port.name : sp.port === b.port.number))
      )
        add(`backend ${b.name} has no port ${b.port.name ?? b.port.number}`);
    }
  }
}

/** The checks of one object, in the order they have always been reported. */
function objectChecks(o, add, x) {
  if (['Deployment', 'StatefulSet'].includes(o.kind)) workloadChecks(o, add, x);
  const pod = podSpecOf(o);
  if (pod) podChecks(o, pod, add, x);
  if (o.kind === 'Service' && o.spec.selector) serviceChecks(o, add, x);
  if (o.kind === 'HorizontalPodAutoscaler') autoscalerChecks(o, add, x);
  if (
    o.kind === 'PodDisruptionBudget' &&
    !x.workloads.some((w) => matches(o.spec.selector?.matchLabels, podLabelsOf(w)))
  ) {
    add('selector matches no workload');
  }
  if (
    o.kind === 'NetworkPolicy' &&
    !x.workloads.some((w) => matches(o.spec.podSelector?.matchLabels, podLabelsOf(w)))
  ) {
    add('podSelector matches no workload');
  }
  if (o.kind === 'NetworkPolicy') callChecks(o, add, x);
  if (o.kind === 'Secret' && o.data?.CALLER_SIGNING_KEY) callerKeyChecks(o, add);
  if (o.kind === 'Ingress') ingressChecks(o, add, x);
}

/**
 * The generated caller-assertion key pair (docs/adr/021): an Ed25519 private key, and a verify key
 * that holds its public key and no private key (services receive it).
 */
function callerKeyChecks(o, add) {
  const text = (k) => Buffer.from(o.data[k] ?? '', 'base64').toString();
  try {
    const priv = createPrivateKey(text('CALLER_SIGNING_KEY'));
    if (priv.asymmetricKeyType !== 'ed25519') add('CALLER_SIGNING_KEY is not an Ed25519 key');
    const verify = text('CALLER_VERIFY_KEY');
    if (/PRIVATE KEY/.test(verify)) add('CALLER_VERIFY_KEY holds a private key');
    const pub = createPublicKey(verify).export({ type: 'spki', format: 'der' });
    if (!pub.equals(createPublicKey(priv).export({ type: 'spki', format: 'der' })))
      add('CALLER_VERIFY_KEY is not the public key of CALLER_SIGNING_KEY');
  } catch (err) {
    add(`caller keys do not parse: ${err.message}`);
  }
}

/** Pods a NetworkPolicy peer list admits, by component (undefined: any peer). */
function peerComponents(peers) {
  if (!peers) return undefined;
  return peers.flatMap(
    (p) =>
      p.podSelector?.matchExpressions?.find((e) => e.key === 'app.kubernetes.io/component')?.values ?? [],
  );
}

/** A declared call gets through both NetworkPolicies: the caller's egress and the callee's ingress. */
function callChecks(o, add, { services }) {
  const component = o.spec.podSelector?.matchLabels?.['app.kubernetes.io/component'];
  const svc = services[component];
  if (!svc) return;
  for (const callee of svc.calls ?? []) {
    const port = services[callee]?.port;
    const out = (o.spec.egress ?? []).some(
      (r) => peerComponents(r.to)?.includes(callee) && (r.ports ?? []).some((p) => p.port === port),
    );
    if (!out) add(`no egress to ${callee}:${port}, which ${component} calls`);
  }
  for (const [caller, c] of Object.entries(services)) {
    if (!(c.calls ?? []).includes(component)) continue;
    const admitted = (o.spec.ingress ?? []).some((r) => {
      const from = peerComponents(r.from);
      return from === undefined || from.includes(caller);
    });
    if (!admitted) add(`no ingress from ${caller}, which calls ${component}`);
  }
}

/** Every enabled service is there, with each of its objects. */
function missingServiceObjects(problems, { services, named }) {
  for (const [name, svc] of Object.entries(services)) {
    const full = `${RELEASE}-quartermaster-${name}`;
    const want = ['ConfigMap', 'Deployment', 'Service', ...(svc.networkPolicy ? ['NetworkPolicy'] : [])];
    if (svc.autoscaling?.enabled) want.push('HorizontalPodAutoscaler');
    if (svc.pdb?.enabled) want.push('PodDisruptionBudget');
    const missing = want.filter((kind) => !named(kind, full));
    if (missing.length)
      problems.set({ kind: 'Service', metadata: { name: full }, synthetic: true }, [
        `missing ${missing.join(', ')}`,
      ]);
  }
}

/** Problems of each object (keyed by its id) found by looking at the whole render. */
function crossChecks(objects, { services, externalSecrets, keysFrom }) {
  const problems = new Map(objects.map((o) => [o, []]));
  const x = {
    services,
    externalSecrets,
    keysFrom,
    named: (kind, name) => objects.find((o) => o.kind === kind && o.metadata?.name === name),
    workloads: objects.filter((o) => ['Deployment', 'StatefulSet'].includes(o.kind)),
  };
  const seen = new Set();
  for (const o of objects) {
    const add = (m) => problems.get(o).push(m);
    const id = `${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name}`;
    if (seen.has(id)) add('duplicate object');
    seen.add(id);
    objectChecks(o, add, x);
  }
  missingServiceObjects(problems, x);
  // One generated Secret per render: every pod's checksum/secret must be of the data the Secret holds,
  // or the first upgrade (which reads the Secret back) rolls every Deployment.
  const sums = new Set(x.workloads.map((w) => w.spec?.template?.metadata?.annotations?.['checksum/secret']));
  sums.delete(undefined);
  if (sums.size > 1)
    for (const w of x.workloads) problems.get(w).push(`${sums.size} different checksum/secret annotations`);
  return problems;
}

// ---------------------------------------------------------------- value sets
function deepMerge(a, b) {
  if (b === undefined) return a;
  if (!a || typeof a !== 'object' || Array.isArray(a) || !b || typeof b !== 'object' || Array.isArray(b))
    return b;
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = deepMerge(a[k], v);
  return out;
}

const defaults = parse(readFileSync(path.join(CHART, 'values.yaml'), 'utf8'));
const allOn = Object.keys(defaults.services).flatMap((n) => ['--set', `services.${n}.enabled=true`]);
/** Keycloak lets concurrent sign-ins of one account proceed, as the local stack does (docs/adr/029). */
function keycloakChecks(objects) {
  const kc = objects.find((o) => o.kind === 'StatefulSet' && o.metadata.name.endsWith('keycloak'));
  const env = kc?.spec.template.spec.containers[0].env ?? [];
  const allow = env.find(
    (e) => e.name === 'KC_SPI_BRUTE_FORCE_PROTECTOR_DEFAULT_BRUTE_FORCE_DETECTOR_ALLOW_CONCURRENT_REQUESTS',
  );
  return allow?.value === 'true' ? [] : ['Keycloak blocks concurrent sign-ins of one account'];
}

const valueSets = [
  { name: 'values.yaml', args: [], overlay: {}, expect: keycloakChecks },
  ...readdirSync(CHART)
    .filter((f) => /^values-.+\.ya?ml$/.test(f))
    .sort()
    .map((f) => ({
      name: f,
      args: ['-f', path.join(CHART, f)],
      overlay: parse(readFileSync(path.join(CHART, f), 'utf8')) ?? {},
    })),
  {
    name: 'values.yaml + every service + ingress',
    args: [
      ...allOn,
      '--set',
      'ingress.enabled=true',
      '--set',
      'ingress.tls.enabled=true',
      '--set-string',
      'ingress.trustedProxies=10.244.0.0/16',
      '--set-string',
      'networkPolicy.gatewayFrom[0].namespaceSelector.matchLabels.ingress=true',
    ],
    overlay: {
      services: Object.fromEntries(Object.keys(defaults.services).map((n) => [n, { enabled: true }])),
      ingress: { enabled: true, trustedProxies: '10.244.0.0/16' },
    },
  },
];

// make cluster-test's values (scripts/cluster/values-local.yaml): FerretDB where MongoDB runs, probed by
// its port (the image has no mongosh); the gateway pauses before SIGTERM (an upgrade with no downtime).
const LOCAL_VALUES = path.join(ROOT, 'scripts', 'cluster', 'values-local.yaml');
valueSets.push({
  name: 'scripts/cluster/values-local.yaml',
  args: ['-f', LOCAL_VALUES],
  overlay: parse(readFileSync(LOCAL_VALUES, 'utf8')),
  expect: (objects) => {
    const container = (kind, name) =>
      objects.find((o) => o.kind === kind && o.metadata.name.endsWith(`-${name}`))?.spec.template.spec
        .containers[0];
    const problems = [];
    if (!container('StatefulSet', 'mongodb')?.readinessProbe?.tcpSocket)
      problems.push('mongodb: the readiness probe is not a tcpSocket probe');
    if (container('Deployment', 'gateway')?.lifecycle?.preStop?.exec?.command?.[0] !== 'sleep')
      problems.push('gateway: no preStop pause');
    return problems;
  },
});

// Stripe's keys from a Secret of their own, the rest from the chart's.
valueSets.push({
  name: 'values.yaml + wallet with Stripe keys from their own Secret',
  args: [
    '--set',
    'services.wallet.enabled=true',
    ...['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_PUBLISHABLE_KEY'].flatMap((k) => [
      '--set-string',
      `secrets.keysFrom.${k}=stripe-credentials`,
    ]),
  ],
  overlay: {
    services: { wallet: { enabled: true } },
    secrets: {
      keysFrom: Object.fromEntries(
        ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_PUBLISHABLE_KEY'].map((k) => [
          k,
          'stripe-credentials',
        ]),
      ),
    },
  },
});

// Traces (docs/adr/016): with global.otel.endpoint every workload of ours gets the endpoint and its own
// service name, and its NetworkPolicy lets it reach the collector; without it none gets either.
const OTEL_ENDPOINT = 'http://otel-collector.observability:4318';
function otelChecks(endpoint) {
  return (objects, services) => {
    const problems = [];
    for (const name of Object.keys(services)) {
      const cm = objects.find((o) => o.kind === 'ConfigMap' && o.metadata?.name?.endsWith(`-${name}`));
      const np = objects.find((o) => o.kind === 'NetworkPolicy' && o.metadata?.name?.endsWith(`-${name}`));
      if (!cm) {
        problems.push(`${name}: no ConfigMap`);
        continue;
      }
      const reaches = (np?.spec?.egress ?? []).some((rule) =>
        (rule.ports ?? []).some((p) => p.port === 4318 && p.protocol === 'TCP'),
      );
      if (endpoint) {
        if (cm.data.OTEL_EXPORTER_OTLP_ENDPOINT !== endpoint)
          problems.push(`${name}: OTEL_EXPORTER_OTLP_ENDPOINT is ${cm.data.OTEL_EXPORTER_OTLP_ENDPOINT}`);
        if (cm.data.OTEL_SERVICE_NAME !== name)
          problems.push(`${name}: OTEL_SERVICE_NAME is ${cm.data.OTEL_SERVICE_NAME}`);
        if (np && !reaches) problems.push(`${name}: its NetworkPolicy allows no egress to the collector`);
      } else {
        const set = Object.keys(cm.data).filter((k) => k.startsWith('OTEL_'));
        if (set.length) problems.push(`${name}: ${set.join(', ')} set without global.otel.endpoint`);
        if (reaches) problems.push(`${name}: egress to port 4318 without global.otel.endpoint`);
      }
    }
    return problems;
  };
}
valueSets[0].expect = otelChecks(undefined);
valueSets.push({
  name: 'values.yaml + every service + an OTLP endpoint',
  args: [...allOn, '--set', `global.otel.endpoint=${OTEL_ENDPOINT}`],
  overlay: {
    services: Object.fromEntries(Object.keys(defaults.services).map((n) => [n, { enabled: true }])),
    global: { otel: { endpoint: OTEL_ENDPOINT } },
  },
  expect: otelChecks(OTEL_ENDPOINT),
});

const mustFail = [
  {
    what: 'a MongoDB readiness probe other than mongosh|tcpSocket',
    args: ['--set', 'mongodb.readinessProbe=ping'],
    message: 'mongodb.readinessProbe must be mongosh or tcpSocket',
  },
  {
    what: 'MongoDB neither installed nor external',
    args: ['--set', 'mongodb.enabled=false'],
    message: 'mongodb: set mongodb.enabled=true or mongodb.external.url',
  },
  {
    what: 'the gateway disabled',
    args: ['--set', 'services.gateway.enabled=false'],
    message: 'services.gateway must be enabled',
  },
  {
    what: 'a service kind other than http|grpc',
    args: ['--set', 'services.catalog.kind=rest'],
    message: 'services.catalog.kind must be http or grpc',
  },
  {
    what: 'a call to a service that is not enabled',
    // orders, activity and assistant call identity too: off, so the message names the wallet's call.
    args: [
      '--set',
      'services.wallet.enabled=true',
      '--set',
      'services.orders.enabled=false',
      '--set',
      'services.activity.enabled=false',
      '--set',
      'services.assistant.enabled=false',
      '--set',
      'services.identity.enabled=false',
    ],
    message: 'services.wallet calls identity, which is not enabled',
  },
  {
    what: 'the ingress without the proxies the gateway may believe',
    args: ['--set', 'ingress.enabled=true'],
    message: 'ingress.trustedProxies is required with the ingress',
  },
  {
    what: 'SMTP neither installed nor external',
    args: ['--set', 'smtp.enabled=false'],
    message: 'smtp: set smtp.enabled=true or smtp.external.url',
  },
];

// ---------------------------------------------------------------- run
function checkRealm() {
  if (process.argv.includes('--sync-realm')) {
    copyFileSync(REALM_SOURCE, REALM_COPY);
    console.log('chart-test: copied k8s/keycloak/realm-quartermaster.json into the chart');
  }
  if (!existsSync(REALM_SOURCE)) return fail('realm', 'k8s/keycloak/realm-quartermaster.json is missing');
  if (!existsSync(REALM_COPY) || !readFileSync(REALM_SOURCE).equals(readFileSync(REALM_COPY))) {
    return fail(
      'realm',
      'charts/quartermaster/files/realm-quartermaster.json differs from k8s/keycloak/realm-quartermaster.json; run node scripts/chart-test.mjs --sync-realm',
    );
  }
  console.log('chart-test: realm copy matches k8s/keycloak/realm-quartermaster.json');
  checkThemes();
}

/** The chart's copy of the realm's Keycloak themes (its ConfigMap) equals k8s/keycloak/themes, file by file. */
function checkThemes() {
  const files = (dir) =>
    existsSync(dir)
      ? readdirSync(dir, { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile())
          .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
          .sort()
      : [];
  if (process.argv.includes('--sync-realm')) {
    rmSync(THEMES_COPY, { recursive: true, force: true });
    cpSync(THEMES_SOURCE, THEMES_COPY, { recursive: true });
    console.log('chart-test: copied k8s/keycloak/themes into the chart');
  }
  const source = files(THEMES_SOURCE);
  const copy = files(THEMES_COPY);
  const same =
    source.length > 0 &&
    source.join('\n') === copy.join('\n') &&
    source.every((f) =>
      readFileSync(path.join(THEMES_SOURCE, f)).equals(readFileSync(path.join(THEMES_COPY, f))),
    );
  if (!same) {
    return fail(
      'themes',
      'charts/quartermaster/files/keycloak-themes differs from k8s/keycloak/themes; run node scripts/chart-test.mjs --sync-realm',
    );
  }
  console.log(`chart-test: theme copy matches k8s/keycloak/themes (${source.length} files)`);
}

function checkSkaffold() {
  const file = path.join(ROOT, 'skaffold.yaml');
  if (!existsSync(file)) return fail('skaffold.yaml', 'missing');
  const docs = parseAllDocuments(readFileSync(file, 'utf8'));
  const errors = docs.flatMap((d) => d.errors);
  if (errors.length) return fail('skaffold.yaml', errors[0].message);
  const config = docs[0].toJS();
  const problems = [];
  const artifacts = config.build?.artifacts ?? [];
  const release = config.deploy?.helm?.releases?.[0];
  if (!release) problems.push('no deploy.helm release');
  else if (path.resolve(ROOT, release.chartPath ?? '') !== CHART)
    problems.push(`chartPath ${release.chartPath} is not charts/quartermaster`);
  const targets = new Map();
  for (const a of artifacts) {
    const target = a.docker?.buildArgs?.TARGET;
    if ((a.docker?.dockerfile ?? 'Dockerfile') !== 'Dockerfile' || (a.context ?? '.') !== '.')
      problems.push(`${a.image}: not built from the root Dockerfile`);
    if (!target || !defaults.services[target])
      problems.push(`${a.image}: TARGET ${target} is no chart service`);
    else targets.set(target, a.image.replace(/[/.-]/g, '_'));
  }
  for (const [name, svc] of Object.entries(defaults.services)) {
    if (svc.enabled && !targets.has(name)) problems.push(`no artifact for enabled service ${name}`);
  }
  for (const [target, sanitized] of targets) {
    const templates = release?.setValueTemplates ?? {};
    if (templates[`services.${target}.image.repository`] !== `{{.IMAGE_REPO_${sanitized}}}`)
      problems.push(`${target}: image.repository is not set from IMAGE_REPO_${sanitized}`);
    if (templates[`services.${target}.image.tag`] !== `{{.IMAGE_TAG_${sanitized}}}`)
      problems.push(`${target}: image.tag is not set from IMAGE_TAG_${sanitized}`);
  }
  if (!(config.profiles ?? []).some((p) => p.name === 'dev')) problems.push('no dev profile');
  if (problems.length) return fail('skaffold.yaml', problems.join('; '));
  console.log(
    `chart-test: skaffold.yaml builds ${targets.size} images from the root Dockerfile into the chart`,
  );
}

function main() {
  const bin = helmBinary();
  checkRealm();
  checkSkaffold();
  const common = ['--kube-version', KUBE_VERSION];

  for (const set of valueSets) {
    const values = deepMerge(defaults, set.overlay);
    const lint = helm(bin, ['lint', CHART, '--strict', ...common, ...set.args]);
    if (!lint.ok) fail(`helm lint (${set.name})`, (lint.stdout + lint.stderr).trim());

    const render = helm(bin, ['template', RELEASE, CHART, '--namespace', NAMESPACE, ...common, ...set.args]);
    if (!render.ok) {
      fail(`helm template (${set.name})`, render.stderr.trim());
      continue;
    }
    const objects = [];
    for (const doc of parseAllDocuments(render.stdout)) {
      if (doc.errors.length || doc.warnings.length) {
        fail(`yaml (${set.name})`, [...doc.errors, ...doc.warnings].map((e) => e.message).join('; '));
        continue;
      }
      const o = doc.toJS();
      if (o !== null && o !== undefined) objects.push(o);
    }
    const services = Object.fromEntries(
      Object.entries(values.services)
        .filter(([, s]) => s.enabled)
        .map(([n, s]) => [n, { ...s, networkPolicy: values.networkPolicy.enabled }]),
    );
    const externalSecrets = [
      values.secrets.existingSecret,
      ...Object.values(values.secrets.keysFrom ?? {}),
    ].filter(Boolean);
    const cross = crossChecks(objects, {
      services,
      externalSecrets,
      keysFrom: values.secrets.keysFrom ?? {},
    });
    if (set.expect) {
      const problems = set.expect(objects, services);
      if (problems.length) fail(`${set.name}: expected rendering`, problems.join('; '));
      else {
        passed++;
        console.log(`chart-test: ${set.name}: rendering as expected`);
      }
    }
    let ok = 0;
    for (const [o, problems] of cross) {
      const all = o.synthetic ? problems : [...validateSchema(o), ...problems];
      if (all.length) fail(`${set.name}: ${o.kind} ${o.metadata?.name}`, all.join('; '));
      else ok++;
    }
    passed += ok;
    const kinds = {};
    for (const o of objects) kinds[o.kind] = (kinds[o.kind] ?? 0) + 1;
    console.log(
      `chart-test: ${set.name}: ${ok}/${objects.length} objects valid (${Object.entries(kinds)
        .map(([k, n]) => `${n} ${k}`)
        .join(', ')})`,
    );
  }

  // The cluster-level manifests beside the chart.
  const k8sDir = path.join(ROOT, 'k8s');
  const manifests = existsSync(k8sDir)
    ? readdirSync(k8sDir)
        .filter((f) => /\.ya?ml$/.test(f))
        .sort()
    : [];
  let k8sOk = 0;
  for (const file of manifests) {
    for (const doc of parseAllDocuments(readFileSync(path.join(k8sDir, file), 'utf8'))) {
      const o = doc.errors.length ? null : doc.toJS();
      if (doc.errors.length) fail(`k8s/${file}`, doc.errors[0].message);
      else if (o) {
        const problems = validateSchema(o);
        if (problems.length) fail(`k8s/${file}: ${o.kind} ${o.metadata?.name}`, problems.join('; '));
        else k8sOk++;
      }
    }
  }
  passed += k8sOk;
  console.log(`chart-test: k8s/*.yaml: ${k8sOk} objects valid`);

  for (const c of mustFail) {
    const r = helm(bin, ['template', RELEASE, CHART, ...common, ...c.args]);
    if (r.ok) fail(`render with ${c.what}`, 'succeeded but must fail');
    else if (!r.stderr.includes(c.message))
      fail(`render with ${c.what}`, `failed with an unexpected message: ${r.stderr.trim()}`);
  }
  console.log(`chart-test: ${mustFail.length} invalid value sets refused`);
  console.log(`chart-test: ${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main();
