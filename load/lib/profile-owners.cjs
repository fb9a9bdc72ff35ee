// Who a CPU profile's time belongs to: our code, the libraries that carry an operation's messages
// (database drivers, gRPC, NATS, SMTP), the other libraries, or the runtime itself (V8's garbage
// collector and native work, Node's internals). A sample belongs to the nearest frame up its stack
// that is ours or a library's, so a system call a driver makes is the driver's, and work our code
// asks of a library is the library's. Code in a service's bundle (esbuild keeps a `// <path>` line
// before each module) is placed by the module its line falls in.
const { readFileSync } = require('node:fs');
const { fileURLToPath } = require('node:url');

/** V8's own frames: its collector, and native work no JavaScript frame is charged with. */
const RUNTIME_FRAMES = new Set(['(garbage collector)', '(program)']);

/** The libraries through which an operation's messages go out and come back. */
const CARRIERS = new Set([
  'mongodb',
  'bson',
  'mongoose',
  'mquery',
  'pg',
  'pg-protocol',
  'pg-pool',
  '@grpc/grpc-js',
  '@bufbuild/protobuf',
  'nats',
  'nodemailer',
]);

/** The package a file belongs to (`@grpc/grpc-js`, `mongodb`), or undefined when it is in none. */
const packageOf = (file) => file.match(/node_modules\/((@[^/]+\/)?[^/]+)/)?.[1];
/** Our code by its part of the repository (`services/orders`, `packages/platform`), wherever it runs from. */
const oursOf = (file) => {
  const inRepo = file.match(/(?:^|\/)((?:packages|services|gateway|frontends|load|scripts)\/.*)$/)?.[1];
  return `ours:${(inRepo ?? file).split('/').slice(0, 2).join('/')}`;
};

/** The modules of a bundle: the line each starts at and its path, in order. */
function bundleModules(file) {
  const starts = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (/^\/\/ [\w@.-]+\/\S+\.[cm]?[jt]sx?$/.test(line)) starts.push([i, line.slice(3)]);
    });
  return starts;
}

/** The owner of a frame: a package name, `ours:<dir>/<name>`, or undefined (Node's own code). */
function ownerFinder() {
  const bundles = new Map();
  return ({ url, lineNumber }) => {
    if (!url.startsWith('file://')) return undefined;
    const file = fileURLToPath(url);
    const pkg = packageOf(file);
    if (pkg) return pkg;
    if (!file.endsWith('/dist/main.js')) return oursOf(file);
    if (!bundles.has(file)) bundles.set(file, bundleModules(file));
    const modules = bundles.get(file);
    let lo = 0;
    let hi = modules.length - 1;
    if (hi < 0 || modules[0][0] > lineNumber) return 'ours:bundle';
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (modules[mid][0] <= lineNumber) lo = mid;
      else hi = mid - 1;
    }
    const path = modules[lo][1];
    return packageOf(path) ?? oursOf(path);
  };
}

/**
 * The profile's busy time by owner, and its shares: `ours`, `carriers`, `libraries`, `runtime`
 * (microseconds). Idle time is left out.
 */
function profileOwners(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const ownerOf = ownerFinder();
  const ownerOfNode = new Map();
  const resolve = (id) => {
    if (ownerOfNode.has(id)) return ownerOfNode.get(id);
    const frame = byId.get(id).callFrame;
    const owner = RUNTIME_FRAMES.has(frame.functionName)
      ? frame.functionName
      : (ownerOf(frame) ?? (parent.has(id) ? resolve(parent.get(id)) : 'node'));
    ownerOfNode.set(id, owner);
    return owner;
  };
  const owners = new Map();
  profile.samples.forEach((id, i) => {
    if (byId.get(id).callFrame.functionName === '(idle)') return;
    const owner = resolve(id);
    owners.set(owner, (owners.get(owner) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const shares = { ours: 0, carriers: 0, libraries: 0, runtime: 0 };
  for (const [owner, us] of owners) shares[shareOf(owner)] += us;
  return { owners, shares };
}

function shareOf(owner) {
  if (owner.startsWith('ours:')) return 'ours';
  if (RUNTIME_FRAMES.has(owner) || owner === 'node') return 'runtime';
  return CARRIERS.has(owner) ? 'carriers' : 'libraries';
}

/** Lines that say it: the four shares, then the largest owners. */
function ownersReport({ owners, shares }, top = 15) {
  const total = Object.values(shares).reduce((a, b) => a + b, 0) || 1;
  const pct = (us) => `${((us / total) * 100).toFixed(1).padStart(5)} %`;
  return [
    `our code ${pct(shares.ours)}, the messages' libraries ${pct(shares.carriers)}, ` +
      `other libraries ${pct(shares.libraries)}, the runtime ${pct(shares.runtime)} ` +
      `(of ${(total / 1000).toFixed(0)} ms busy)`,
    ...[...owners]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([owner, us]) => `${pct(us)}  ${owner.replace(/^ours:/, '')} (${shareOf(owner)})`),
  ];
}

module.exports = { packageOf, profileOwners, ownersReport };

// node load/lib/profile-owners.cjs <file.cpuprofile>…: the report of profiles already written.
if (require.main === module)
  for (const file of process.argv.slice(2)) {
    console.log(`# ${file}`);
    console.log(ownersReport(profileOwners(JSON.parse(readFileSync(file, 'utf8')))).join('\n'));
  }
