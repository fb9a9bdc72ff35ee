import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { FERRETDB_POSTGRESQL_URL } from './infra';

const FERRETDB = path.resolve(__dirname, '../../../.tools/bin/ferretdb');

/**
 * A FerretDB of a test's own on the stack's PostgreSQL (the stack's FerretDB serves the other tests
 * running meanwhile), for tests that kill it. Resolves once it accepts connections on `port`.
 */
export async function startFerret(port: number, stateDir: string): Promise<ChildProcess> {
  const child = spawn(
    FERRETDB,
    [
      '--handler=postgresql',
      `--postgresql-url=${FERRETDB_POSTGRESQL_URL}`,
      `--listen-addr=127.0.0.1:${port}`,
      '--telemetry=disable',
      `--state-dir=${stateDir}`,
      '--debug-addr=-',
      '--log-level=error',
    ],
    { stdio: 'ignore' },
  );
  const until = Date.now() + 20000;
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => (s.destroy(), resolve(true)));
      s.once('error', () => resolve(false));
    });
    if (up) return child;
    if (Date.now() > until) throw new Error('ferretdb did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** SIGKILL, as the chaos run does; resolves once the process is gone. */
export async function killFerret(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}
