// Port checks: is a TCP port free, who holds it, and waiting for ports to be released.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function canListen(port, host, ipv6Only = false) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', (err) => {
      // No IPv6 on this machine: nothing can be listening there either.
      resolve(err.code !== 'EADDRINUSE' && err.code !== 'EACCES');
    });
    srv.listen({ port, host, ipv6Only, exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

/** True when nothing listens on the port, on any IPv4 or IPv6 address. */
export async function isPortFree(port) {
  return (await canListen(port, '0.0.0.0')) && (await canListen(port, '::', true));
}

function cmdlineOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .filter(Boolean)
      .join(' ')
      .replace(/\s+/g, ' ');
  } catch {
    return '';
  }
}

/** Describes the process listening on a port ("pid 123 nats-server -js ..."), best effort. */
export function whoUses(port) {
  const attempts = [
    () => {
      const out = execFileSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8', stdio: 'pipe' });
      const m = out.match(/users:\(\("([^"]+)",pid=(\d+)/);
      return m ? { pid: Number(m[2]), name: m[1] } : undefined;
    },
    () => {
      const out = execFileSync('lsof', ['-nP', `-iTCP:${port}`, '-sTCP:LISTEN', '-Fpc'], {
        encoding: 'utf8',
        stdio: 'pipe',
      });
      const pid = out.match(/^p(\d+)/m);
      const name = out.match(/^c(.+)$/m);
      return pid ? { pid: Number(pid[1]), name: name?.[1] ?? '?' } : undefined;
    },
  ];
  for (const attempt of attempts) {
    try {
      const found = attempt();
      if (found) {
        const cmd = cmdlineOf(found.pid);
        return `pid ${found.pid} (${found.name})${cmd ? `: ${cmd.slice(0, 160)}` : ''}`;
      }
    } catch {
      // tool missing or no permission: try the next one
    }
  }
  return `an unknown process (check with: ss -ltnp 'sport = :${port}')`;
}

const RESERVED_PORTS = '/proc/sys/net/ipv4/ip_local_reserved_ports';

/**
 * Our fixed ports (gRPC 50051+) lie inside Linux's ephemeral range (32768–60999), so an outgoing
 * connection — FerretDB's pool to PostgreSQL, say — can be handed one of them as its local port and
 * the service then cannot listen. Where we may (root, Linux), keep the kernel from handing them
 * out; elsewhere this is a no-op and the check below explains a collision.
 */
export function reserveFromEphemeralRange(ports) {
  try {
    const current = readFileSync(RESERVED_PORTS, 'utf8').trim();
    const missing = ports.filter((p) => !rangesInclude(current, p));
    if (missing.length) writeFileSync(RESERVED_PORTS, [current, ...missing].filter(Boolean).join(','));
  } catch {
    // not Linux, not root, or a read-only /proc (containers): nothing to do
  }
}

function rangesInclude(list, port) {
  return list
    .split(',')
    .filter(Boolean)
    .some((range) => {
      const [lo, hi = lo] = range.split('-').map(Number);
      return port >= lo && port <= hi;
    });
}

/** Fails with one message naming every busy port and its owner. */
export async function assertPortsFree(ports, waitMs = 3000) {
  // A port held only by a closing or short-lived client connection is released within seconds.
  const stillBusy = new Set(
    await waitPortsFree(
      ports.map((p) => p.port),
      waitMs,
    ),
  );
  const busy = [];
  for (const { port, owner } of ports) {
    if (stillBusy.has(port)) busy.push(`  port ${port} (needed by ${owner}) is in use by ${whoUses(port)}`);
  }
  if (busy.length) {
    const err = new Error(
      `cannot start: ${busy.length === 1 ? 'a port is' : 'ports are'} already in use\n${busy.join('\n')}\n` +
        '  Stop that process (or a stack left running in another terminal) and try again.',
    );
    err.code = 'EPORTBUSY';
    throw err;
  }
}

/** Waits until every port is released; resolves with the ones still busy after the timeout. */
export async function waitPortsFree(ports, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  let busy = ports;
  for (;;) {
    const still = [];
    for (const p of busy) if (!(await isPortFree(p))) still.push(p);
    busy = still;
    if (!busy.length || Date.now() > deadline) return busy;
    await sleep(200);
  }
}
