#!/usr/bin/env node
// `make cluster-test` (docs/kubernetes.md, docs/adr/030): the chart installed, used, upgraded and removed on
// the running single-node cluster of `make cluster`, as a platform team would:
//   install    helm install charts/quartermaster with the images' values (make cluster-images) and
//              scripts/cluster/values-local.yaml into k8s/namespace.yaml (Pod Security "restricted"),
//              on volumes of the node's disk (no provisioner here)
//   ready      every Deployment and StatefulSet rolled out, as their readiness probes say
//   helm test  the chart's test pod asks the gateway for /readyz
//   journey    through the gateway's Service (kube-proxy): a manufacturer lists a product, the
//              administrator approves the users, a buyer tops up through the sandbox and buys;
//              the order and the balance are as paid, and system:check and ledger:check pass on the
//              in-cluster MongoDB (the services' MongoDB engine)
//   upgrade    helm upgrade with a new pod annotation for the gateway while requests run every 50 ms:
//              no request may fail, the gateway's pods are all new, no other workload rolled
//   uninstall  helm uninstall: no pod and nothing of the release left but what the chart keeps (its
//              Secret, the StatefulSets' volume claims), which the test then removes
// A failed phase fails the ones after it (uninstall still runs, and clean-up whatever happens); the
// pods of a workload that did not become ready are described, with their logs' last lines.
// Prints the phases' times on one line and `cluster-test: N passed, M failed`; with E2E_RESULT_FILE
// the counts as JSON there (e2e/lib/report.mjs), as scripts/ci-test.mjs reads them.
//   CLUSTER_DATA   the cluster's data directory (as cluster.sh; default .data/cluster)
//   READY_TIMEOUT_S  how long the install may take to be ready (default 600)
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readlinkSync, rmSync, chownSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { emailOf, registerApproved, signedInClient, topUp } from '../../e2e/lib/api.mjs';
import { report } from '../../e2e/lib/report.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DATA = path.resolve(process.env.CLUSTER_DATA ?? path.join(ROOT, '.data/cluster'));
const CACHE = process.env.QM_CACHE ?? path.join(os.homedir(), '.cache/quartermaster');
const IMAGES_VALUES = path.join(CACHE, 'images/values.yaml');
const LOCAL_VALUES = path.join(ROOT, 'scripts/cluster/values-local.yaml');
const CHART = path.join(ROOT, 'charts/quartermaster');
const RELEASE = 'qm';
const NAMESPACE = 'quartermaster';
const FULLNAME = `${RELEASE}-quartermaster`;
const READY_TIMEOUT_S = Number(process.env.READY_TIMEOUT_S ?? 600);
// The StatefulSets' volumes (a StorageClass without a provisioner, volumes bound to the claims by
// name) and the uid each pod runs as: the kubelet gives a host directory no fsGroup.
const VOLUMES = { nats: 1000, mongodb: 999, keycloak: 1000 };
const STORAGE_CLASS = 'qm-local';

// ---- the cluster's network namespace ---------------------------------------------------------------
// The cluster runs in a network namespace of its own (docs/adr/030): its Services' addresses exist only
// there. The script runs itself again inside it (the mount namespace stays the host's: same files).
const pidFile = path.join(DATA, 'cluster.pid');
if (process.env.QM_CLUSTER_TEST_INSIDE !== '1') {
  if (!existsSync(pidFile)) {
    console.error(`cluster-test: no cluster is running on ${DATA} (make cluster)`);
    process.exit(1);
  }
  for (const args of [
    ['scripts/provision.sh', 'helm'],
    ['scripts/cluster/cluster.sh', 'wait'],
  ]) {
    const r = spawnSync('bash', args, { cwd: ROOT, stdio: 'inherit' });
    if (r.status !== 0) process.exit(1);
  }
  const pid = readFileSync(pidFile, 'utf8').trim();
  const inside = spawnSync('nsenter', ['-t', pid, '-n', '--', process.execPath, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, QM_CLUSTER_TEST_INSIDE: '1' },
  });
  process.exit(inside.status ?? 1);
}
const netns = (pid) => readlinkSync(`/proc/${pid}/ns/net`);
if (netns('self') !== netns(readFileSync(pidFile, 'utf8').trim())) {
  console.error('cluster-test: not in the cluster network namespace');
  process.exit(2);
}

// ---- commands ----------------------------------------------------------------------------------------

const KUBECONFIG = path.join(DATA, 'kubeconfig/super-admin.conf');
const KUBECTL = path.join(ROOT, '.tools/kubernetes/bin/kubectl');
const HELM = path.join(CACHE, 'bin/helm');

/** Runs a command; answers its stdout, or throws with its stderr. */
function sh(cmd, args, { timeoutMs = 120_000 } = {}) {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { cwd: ROOT, timeout: timeoutMs, maxBuffer: 64 << 20 }, (error, stdout, stderr) => {
      if (error) {
        const what = `${path.basename(cmd)} ${args.join(' ')}`.slice(0, 300);
        reject(new Error(`${what}: ${(stderr || error.message).trim()}`));
      } else resolve(stdout);
    });
  });
}
const kubectl = (args, options) => sh(KUBECTL, ['--kubeconfig', KUBECONFIG, ...args], options);
const kubectlNs = (args, options) => kubectl(['-n', NAMESPACE, ...args], options);
const kubectlJson = async (args) => JSON.parse(await kubectlNs([...args, '-o', 'json']));
const helm = (args, options) => sh(HELM, ['--kubeconfig', KUBECONFIG, '-n', NAMESPACE, ...args], options);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;

// ---- phases ------------------------------------------------------------------------------------------

const results = [];
const times = [];
let blocked = null;

/** A phase is one check; after a failure the phases that need it are failed without running. */
async function phase(name, fn, { always = false } = {}) {
  if (blocked && !always) {
    results.push(false);
    console.log(`FAIL - ${name}: skipped (after "${blocked}" failed)`);
    return;
  }
  console.log(`\n--- ${name}`);
  const started = Date.now();
  try {
    const note = await fn();
    const took = Date.now() - started;
    times.push(`${name} ${seconds(took)}`);
    results.push(true);
    console.log(`ok   - ${name} (${seconds(took)})${note ? `: ${note}` : ''}`);
  } catch (error) {
    times.push(`${name} failed after ${seconds(Date.now() - started)}`);
    results.push(false);
    blocked ??= name;
    console.log(`FAIL - ${name}: ${error instanceof Error ? error.message : error}`);
  }
}

function check(condition, message) {
  if (!condition) throw new Error(message);
}

/** Removes what an earlier, interrupted run may have left: the release, its namespace, the volumes. */
async function cleanSlate() {
  await helm(['uninstall', RELEASE, '--ignore-not-found', '--wait', '--timeout', '3m'], {
    timeoutMs: 200_000,
  });
  await kubectl(['delete', 'namespace', NAMESPACE, '--ignore-not-found', '--wait', '--timeout=180s'], {
    timeoutMs: 200_000,
  });
  const pvs = Object.keys(VOLUMES).map((c) => `persistentvolume/${STORAGE_CLASS}-${c}`);
  await kubectl(['delete', ...pvs, `storageclass/${STORAGE_CLASS}`, '--ignore-not-found', '--wait']);
  rmSync(path.join(DATA, 'volumes'), { recursive: true, force: true });
}

/** A StorageClass without a provisioner and one host-directory volume for each StatefulSet's claim. */
async function volumes() {
  const objects = [
    {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: STORAGE_CLASS },
      provisioner: 'kubernetes.io/no-provisioner',
      volumeBindingMode: 'WaitForFirstConsumer',
    },
  ];
  for (const [component, uid] of Object.entries(VOLUMES)) {
    const dir = path.join(DATA, 'volumes', component);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chownSync(dir, uid, uid);
    objects.push({
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: `${STORAGE_CLASS}-${component}` },
      spec: {
        storageClassName: STORAGE_CLASS,
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteOnce'],
        persistentVolumeReclaimPolicy: 'Retain',
        hostPath: { path: dir, type: 'Directory' },
        // Bound ahead to the claim of the StatefulSet's only pod (data-<set>-0).
        claimRef: { namespace: NAMESPACE, name: `data-${FULLNAME}-${component}-0` },
      },
    });
  }
  const file = path.join(DATA, 'cluster-test-volumes.json');
  writeFileSync(file, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }));
  await kubectl(['apply', '-f', file]);
}

const valueFiles = ['-f', IMAGES_VALUES, '-f', LOCAL_VALUES];

async function install() {
  check(existsSync(IMAGES_VALUES), `${IMAGES_VALUES} is missing: make cluster-images`);
  // The namespace platform teams are told to create (k8s/namespace.yaml): Pod Security "restricted".
  await kubectl(['apply', '-f', path.join(ROOT, 'k8s/namespace.yaml')]);
  await volumes();
  await helm(['install', RELEASE, CHART, ...valueFiles, '--timeout', '2m'], {
    timeoutMs: 150_000,
  });
  const manifest = await helm(['get', 'manifest', RELEASE]);
  const kinds = {};
  for (const [, kind] of manifest.matchAll(/^kind: (\w+)$/gm)) kinds[kind] = (kinds[kind] ?? 0) + 1;
  const count = Object.values(kinds).reduce((a, b) => a + b, 0);
  return `release ${RELEASE} in namespace ${NAMESPACE}: ${count} objects (${Object.entries(kinds)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ')})`;
}

/** Every Deployment and StatefulSet rolled out (their readiness probes), within READY_TIMEOUT_S. */
async function ready() {
  const deadline = Date.now() + READY_TIMEOUT_S * 1000;
  const workloads = (await kubectlJson(['get', 'deployments,statefulsets'])).items.map(
    (o) => `${o.kind.toLowerCase()}/${o.metadata.name}`,
  );
  check(workloads.length > 0, 'no Deployment or StatefulSet was installed');
  for (const w of workloads) {
    const left = Math.max(1, Math.round((deadline - Date.now()) / 1000));
    try {
      await kubectlNs(['rollout', 'status', w, `--timeout=${left}s`], { timeoutMs: (left + 30) * 1000 });
    } catch (error) {
      await explain();
      throw new Error(`${w} not ready within ${READY_TIMEOUT_S} s: ${error.message.split('\n').pop()}`);
    }
  }
  return `${workloads.length} workloads: ${workloads.map((w) => w.split('/')[1].replace(`${FULLNAME}-`, '')).join(', ')}`;
}

/** The pods that are not ready: their description's end (events) and their logs' last lines. */
async function explain() {
  const pods = await kubectlJson(['get', 'pods']).catch(() => ({ items: [] }));
  console.log(await kubectlNs(['get', 'pods', '-o', 'wide']).catch((e) => e.message));
  for (const pod of pods.items) {
    const statuses = pod.status?.containerStatuses ?? [];
    if (statuses.length && statuses.every((s) => s.ready)) continue;
    const name = pod.metadata.name;
    const describe = await kubectlNs(['describe', 'pod', name]).catch((e) => e.message);
    console.log(`\n----- ${name}: describe (end)\n${describe.split('\n').slice(-25).join('\n')}`);
    const logs = await kubectlNs(['logs', name, '--all-containers', '--tail=30']).catch((e) => e.message);
    console.log(`----- ${name}: logs (last 30 lines)\n${logs}`);
    if (statuses.some((s) => s.restartCount > 0)) {
      const before = await kubectlNs(['logs', name, '--all-containers', '--previous', '--tail=30']).catch(
        (e) => e.message,
      );
      console.log(`----- ${name}: logs of the previous container (last 30 lines)\n${before}`);
    }
  }
}

async function helmTest() {
  const pod = `${FULLNAME}-test-gateway`;
  try {
    // (Without --logs: the chart deletes a test pod that succeeded before helm could read it.)
    const out = await helm(['test', RELEASE, '--timeout', '2m'], { timeoutMs: 150_000 });
    check(/Phase:\s+Succeeded/.test(out), `helm test: ${out}`);
    return `${pod} succeeded`;
  } catch (error) {
    // A failed test pod is kept by the chart: its log says why; then it goes, as the rest will.
    console.log(await kubectlNs(['logs', pod]).catch((e) => e.message));
    await kubectlNs(['delete', 'pod', pod, '--ignore-not-found', '--wait']).catch(() => {});
    throw error;
  }
}

const clusterIp = async (component) =>
  (
    await kubectlNs(['get', 'service', `${FULLNAME}-${component}`, '-o', 'jsonpath={.spec.clusterIP}'])
  ).trim();
const secretKey = async (key) =>
  Buffer.from(
    await kubectlNs(['get', 'secret', FULLNAME, '-o', `jsonpath={.data.${key}}`]),
    'base64',
  ).toString();

const state = {};

/** Register, approve, list a product, top up, buy, then the databases' own checks. */
async function journey() {
  state.base = `http://${await clusterIp('gateway')}:8080`;
  const run = Date.now().toString(36);
  const password = 'Cluster-Pass-123';
  const maker = { username: `kc_mfr_${run}`, firstName: 'Kavya', lastName: 'Forge', role: 'Manufacturer' };
  const buyer = { username: `kc_buy_${run}`, firstName: 'Arjun', lastName: 'Rao', role: 'Army' };
  const admin = { username: 'admin', password: await secretKey('ADMIN_PASSWORD') };
  await registerApproved(state.base, [maker, buyer], password, admin);

  const makerApi = await signedInClient(state.base, maker.username, password);
  const product = await makerApi('POST', '/api/products', {
    name: `Cluster Test Compass ${run}`,
    type: 'Equipment',
    price: '250.00',
    description: 'A lensatic compass, sold through the chart on Kubernetes.',
    stock: 3,
  });
  const buyerApi = await signedInClient(state.base, buyer.username, password);
  state.buyerCookie = buyerApi.cookie();
  await topUp(buyerApi, '1000');
  const order = await buyerApi('POST', '/api/orders', {
    productId: product.id,
    quantity: 2,
    totalPrice: '500.00',
  });
  // A pending order is finished by the service shortly (the saga): wait for it to complete.
  let mine;
  for (let i = 0; i < 30; i++) {
    mine = (await buyerApi('GET', '/api/orders/purchased')).orders.find((o) => o.id === order.id);
    if (mine?.status === 'completed') break;
    await sleep(1000);
  }
  check(mine, `order ${order.id} is not in the buyer's orders`);
  check(
    mine.status === 'completed' && mine.paymentStatus === 'paid' && mine.totalPrice === '500.00',
    `order ${order.id}: ${mine.status}, payment ${mine.paymentStatus}, total ${mine.totalPrice}`,
  );
  const wallet = await buyerApi('GET', '/api/wallet');
  check(wallet.balance === '500.00', `the buyer's balance is ${wallet.balance}, not 500.00 (1000 - 500)`);
  const left = (await buyerApi('GET', '/api/products')).find((p) => p.id === product.id);
  check(left?.stock === 1, `the product's stock is ${left?.stock}, not 1 (3 - 2)`);

  // The invariants across the wallet, catalog and orders databases, read where the services wrote them.
  const mongoUrl = `mongodb://${await clusterIp('mongodb')}:27017`;
  const tsx = path.join(ROOT, 'node_modules/.bin/tsx');
  const system = await sh(tsx, ['load/system-check.ts', '--mongo-url', mongoUrl]);
  const ledger = await sh(tsx, ['load/ledger-check.ts', '--mongo-url', mongoUrl]);
  process.stdout.write(system + ledger);
  return `order ${order.id} by ${emailOf(buyer)}: 2 × ₹250.00 paid, balance ₹${wallet.balance}; system:check and ledger:check pass`;
}

/**
 * Requests every `everyMs` through the gateway's Service until stopped: the product list as the buyer,
 * and /readyz. Each on a new connection (`fresh`: where kube-proxy chooses a pod) or on one kept alive
 * (a reverse proxy's way). A keep-alive connection the server closes as a request leaves may be retried
 * once on a new one (RFC 9112 §9.3.1, Node's `reusedSocket`); those retries are counted and shown.
 */
function requestLoop({ fresh, everyMs = 50 }) {
  const agent = fresh ? false : new http.Agent({ keepAlive: true, maxSockets: 1 });
  const stats = { ok: 0, failed: 0, retried: 0, errors: [] };
  let running = true;
  let n = 0;
  const get = (pathname) =>
    new Promise((resolve, reject) => {
      const req = http.get(
        `${state.base}${pathname}`,
        { agent, headers: { Accept: 'application/json', Cookie: state.buyerCookie }, timeout: 5000 },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode));
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error('timed out after 5 s')));
      req.on('error', (error) => reject(Object.assign(error, { reused: req.reusedSocket })));
    });
  const loop = (async () => {
    while (running) {
      const pathname = n++ % 2 ? '/readyz' : '/api/products?page=1&pageSize=5';
      const started = Date.now();
      try {
        let status;
        try {
          status = await get(pathname);
        } catch (error) {
          if (fresh || !error.reused || error.code !== 'ECONNRESET') throw error;
          stats.retried++;
          status = await get(pathname);
        }
        if (status !== 200) throw new Error(`HTTP ${status}`);
        stats.ok++;
      } catch (error) {
        stats.failed++;
        if (stats.errors.length < 10)
          stats.errors.push(`${new Date().toISOString()} ${pathname}: ${error.code ?? ''} ${error.message}`);
      }
      await sleep(Math.max(0, everyMs - (Date.now() - started)));
    }
  })();
  return {
    stats,
    stop: async () => {
      running = false;
      await loop;
      if (agent) agent.destroy();
      return stats;
    },
  };
}

/** helm upgrade with a new annotation on the gateway's pods, under two request loops. */
async function upgrade() {
  const gateway = `${FULLNAME}-gateway`;
  const selector = `app.kubernetes.io/instance=${RELEASE},app.kubernetes.io/component=gateway`;
  const podsOf = async () =>
    (await kubectlJson(['get', 'pods', '-l', selector])).items.map((p) => p.metadata.name).sort();
  const generations = async () =>
    Object.fromEntries(
      (await kubectlJson(['get', 'deployments,statefulsets'])).items.map((o) => [
        `${o.kind}/${o.metadata.name}`,
        o.metadata.generation,
      ]),
    );
  const before = await podsOf();
  const generationsBefore = await generations();
  const loops = [requestLoop({ fresh: true }), requestLoop({ fresh: false })];
  let stats;
  try {
    await sleep(2000);
    const extra = path.join(DATA, 'cluster-test-upgrade.json');
    const rolledAt = new Date().toISOString();
    writeFileSync(
      extra,
      JSON.stringify({ services: { gateway: { podAnnotations: { 'quartermaster/rolled-at': rolledAt } } } }),
    );
    await helm(['upgrade', RELEASE, CHART, ...valueFiles, '-f', extra, '--timeout', '3m'], {
      timeoutMs: 200_000,
    });
    await kubectlNs(['rollout', 'status', `deployment/${gateway}`, '--timeout=300s'], { timeoutMs: 330_000 });
    // Until the old pods have gone (their preStop pause and shutdown), then a little longer.
    for (const pod of before)
      await kubectlNs(['wait', '--for=delete', `pod/${pod}`, '--timeout=120s'], { timeoutMs: 150_000 });
    await sleep(2000);
  } finally {
    stats = await Promise.all(loops.map((l) => l.stop()));
  }
  const after = await podsOf();
  const generationsAfter = await generations();
  const [fresh, kept] = stats;
  const line = (s, what) =>
    `${what}: ${s.ok} ok, ${s.failed} failed${s.retried ? `, ${s.retried} retried` : ''}`;
  console.log(`  ${line(fresh, 'new connection each')}\n  ${line(kept, 'kept-alive connection')}`);
  for (const e of [...fresh.errors, ...kept.errors]) console.log(`    ${e}`);
  check(fresh.failed === 0 && kept.failed === 0, 'requests failed during the upgrade');
  check(fresh.ok >= 40 && kept.ok >= 40, 'too few requests ran during the upgrade to tell');
  check(
    after.length === before.length && after.every((p) => !before.includes(p)),
    `the gateway's pods were ${before.join(' ')}, now ${after.join(' ')}`,
  );
  const rolled = Object.keys(generationsAfter).filter((k) => generationsAfter[k] !== generationsBefore[k]);
  check(
    rolled.length === 1 && rolled[0] === `Deployment/${gateway}`,
    `the upgrade changed ${rolled.join(', ') || 'nothing'}, not only the gateway`,
  );
  return `gateway pods ${before.join(' ')} → ${after.join(' ')}; ${line(fresh, 'new connections')}; ${line(kept, 'kept alive')}`;
}

/** helm uninstall: no pod left, and of the release only what the chart keeps. */
async function uninstall() {
  await helm(['uninstall', RELEASE, '--wait', '--timeout', '3m'], { timeoutMs: 200_000 });
  const deadline = Date.now() + 120_000;
  let pods;
  while ((pods = (await kubectlJson(['get', 'pods'])).items).length && Date.now() < deadline)
    await sleep(1000);
  check(pods.length === 0, `pods left: ${pods.map((p) => p.metadata.name).join(', ')}`);
  const kinds = 'all,configmap,secret,pvc,networkpolicy,pdb,hpa,ingress,serviceaccount,role,rolebinding';
  const left = (await kubectlJson(['get', kinds])).items
    .filter((o) => !(o.kind === 'ConfigMap' && o.metadata.name === 'kube-root-ca.crt'))
    .filter((o) => !(o.kind === 'ServiceAccount' && o.metadata.name === 'default'))
    .map((o) => `${o.kind}/${o.metadata.name}`)
    .sort();
  // The chart keeps its Secret (helm.sh/resource-policy: keep: Keycloak's and the data's passwords) and
  // Kubernetes the StatefulSets' claims (the data): a reinstall finds both.
  const kept = [
    `Secret/${FULLNAME}`,
    ...Object.keys(VOLUMES).map((c) => `PersistentVolumeClaim/data-${FULLNAME}-${c}-0`),
  ].sort();
  check(
    JSON.stringify(left) === JSON.stringify(kept),
    `left after uninstall: ${left.join(', ')}; expected only ${kept.join(', ')}`,
  );
  return `no pods; kept as the chart says: ${kept.join(', ')}`;
}

// ---- the run -------------------------------------------------------------------------------------------

const t0 = Date.now();
await phase('clean slate', cleanSlate);
await phase('install', install);
await phase('ready', ready);
await phase('helm test', helmTest);
await phase('journey', journey);
await phase('upgrade', upgrade);
// Uninstall whatever failed after the install.
const installed = await helm(['status', RELEASE]).then(
  () => true,
  () => false,
);
await phase('uninstall', uninstall, { always: installed });
const cleanUp = Date.now();
await cleanSlate().catch((error) => console.log(`clean-up: ${error.message}`));
times.push(`clean-up ${seconds(Date.now() - cleanUp)}`);
console.log(`\ncluster-test times: ${times.join(' · ')} · total ${seconds(Date.now() - t0)}`);
report('cluster-test', results.filter(Boolean).length, results.filter((ok) => !ok).length);
