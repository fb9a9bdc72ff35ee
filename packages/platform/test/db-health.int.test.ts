import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@qm/testkit';
import type { Connection } from 'mongoose';
import { checkHealth, LIVENESS, type RunningService, startService, watchDatabase } from '../src';
import { killFerret, startFerret } from './ferretdb-process';
import { eventually, log, MONGO_URL, NATS_URL, uniqueName } from './infra';

// docs/adr/015: the chaos run's stuck activity service kept answering SERVING. A service's health
// now follows its database: not ready while it cannot reach it, live all the same; and a client that
// stays stuck while the database answers others asks to be restarted.

jest.setTimeout(60_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a service whose FerretDB is killed', () => {
  const stateDir = mkdtempSync(path.join(os.tmpdir(), 'qm-ferret-health-'));
  let ferret: ChildProcess | undefined;
  let service: RunningService<unknown> | undefined;
  let stuck = 0;

  afterAll(async () => {
    await service?.stop();
    if (ferret) await killFerret(ferret);
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('is not ready while its database is down, stays live without asking for a restart, and is ready again after', async () => {
    const port = await freePort();
    ferret = await startFerret(port, stateDir);
    service = await startService(
      {
        name: 'healthtest',
        defaultGrpcPort: 0,
        defaultDatabase: uniqueName('qm_test_health'),
        streams: [],
        async setup() {},
      },
      {
        MONGO_URL: `mongodb://127.0.0.1:${port}`,
        NATS_URL,
        GRPC_PORT: '0',
        LOG_LEVEL: 'silent',
        DB_CHECK_EVERY_MS: '200',
        DB_UNREADY_AFTER_MS: '1000',
        DB_STUCK_AFTER_MS: '2000',
      },
      { onDatabaseStuck: () => stuck++ },
    );
    const address = `127.0.0.1:${service.port}`;
    expect(await checkHealth(address)).toBe(true);

    await killFerret(ferret);
    await eventually(async () => !(await checkHealth(address)), 10_000);
    expect(await checkHealth(address, 1000, LIVENESS)).toBe(true);
    // Past DB_STUCK_AFTER_MS: down for everyone, so no restart is asked for.
    await sleep(3000);
    expect(stuck).toBe(0);

    ferret = await startFerret(port, stateDir);
    await eventually(() => checkHealth(address), 20_000);
    await service.rt.conn.dropDatabase();
  });
});

describe('watchDatabase', () => {
  it('calls onStuck when its client gets no answer while a new connection reaches the database', async () => {
    // A connection whose every ping waits forever: what the driver did before store/engine/driver-fix.ts.
    const stuckConn = { db: { admin: () => ({ ping: () => new Promise(() => undefined) }) } };
    let ready = true;
    const onStuck = jest.fn();
    const watch = watchDatabase({
      conn: stuckConn as unknown as Connection,
      url: MONGO_URL,
      log,
      everyMs: 100,
      unreadyAfterMs: 300,
      stuckAfterMs: 600,
      setReady: (r) => (ready = r),
      onStuck,
    });
    try {
      await eventually(() => onStuck.mock.calls.length > 0, 10_000);
      expect(ready).toBe(false);
      await sleep(500);
      expect(onStuck).toHaveBeenCalledTimes(1);
    } finally {
      watch.stop();
    }
  });
});
