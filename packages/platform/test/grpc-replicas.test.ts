// A client of a service with two replicas (docs/adr/025): calls are spread over both; when one dies
// with calls under way, a read or a keyed write is sent again to the other, a write without a key is not.
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { status } from '@grpc/grpc-js';
import { channelTarget, createClient, hasReplicas, isRetriable, unavailable } from '../src';
import { definition, type Res, startReplica } from './replica-fixture';

const TSX = path.resolve(__dirname, '../../../node_modules/.bin/tsx');

/** Replica `a` in a process of its own, to be SIGKILLed; resolves its port. */
function replicaProcess(name: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(TSX, [path.join(__dirname, 'replica-fixture.ts'), name], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => resolve({ child, port: Number(line) }));
    child.once('exit', (code) => reject(new Error(`replica ${name} exited with ${code}`)));
  });
}

describe('a client of two replicas, one of which dies with calls under way', () => {
  let a: Awaited<ReturnType<typeof replicaProcess>>;
  let b: Awaited<ReturnType<typeof startReplica>>;
  let client: ReturnType<typeof createClient<typeof definition>>;

  beforeEach(async () => {
    a = await replicaProcess('a');
    b = await startReplica(async () => ({ replica: 'b' }));
    client = createClient(definition, `127.0.0.1:${a.port},127.0.0.1:${b.port}`, {
      defaultDeadlineMs: 5000,
    });
    // Round robin starts once both connections are ready: until then calls may all go to one.
    const seen = new Set<string>();
    for (let i = 0; i < 50 && seen.size < 2; i++) seen.add((await client.GetReplica({})).replica);
    expect([...seen].sort()).toEqual(['a', 'b']);
  }, 20_000);
  afterEach(() => {
    client.close();
    a.child.kill('SIGKILL');
    b.server.server.forceShutdown();
  });

  it('sends the reads that were under way on the dead replica to the other one', async () => {
    const reads = await Promise.all(Array.from({ length: 10 }, () => client.GetReplica({ die: true })));
    expect(reads.map((r) => r.replica)).toEqual(Array(10).fill('b'));
  });

  it('sends the keyed writes that were under way on the dead replica to the other one', async () => {
    const writes = await Promise.all(
      Array.from({ length: 10 }, (_, i) => client.PlaceThing({ die: true, idempotencyKey: `k${i}` })),
    );
    expect(writes.map((r) => r.replica)).toEqual(Array(10).fill('b'));
  });

  it('does not send a write without a key again: it may have taken effect', async () => {
    const writes = await Promise.allSettled(
      Array.from({ length: 10 }, () => client.PlaceThing({ die: true })),
    );
    const failed = writes.filter((w) => w.status === 'rejected');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((w) => (w.reason as { code?: number }).code === status.UNAVAILABLE)).toBe(true);
  });
});

it('repeats an answered UNAVAILABLE for a keyed write, never for a write without a key', async () => {
  let handled = 0;
  const { server, port } = await startReplica(async (): Promise<Res> => {
    handled++;
    throw unavailable('the store is away');
  });
  const client = createClient(definition, `127.0.0.1:${port}`, { defaultDeadlineMs: 3000 });
  try {
    await expect(client.PlaceThing({})).rejects.toMatchObject({ code: status.UNAVAILABLE });
    expect(handled).toBe(1);
    handled = 0;
    await expect(client.PlaceThing({ idempotencyKey: 'k' })).rejects.toMatchObject({
      code: status.UNAVAILABLE,
    });
    expect(handled).toBe(3);
  } finally {
    client.close();
    server.server.forceShutdown();
  }
});

it('decides what may be repeated from the method name and the idempotency key', () => {
  expect(isRetriable('GetWallet', {})).toBe(true);
  expect(isRetriable('ListOrders', {})).toBe(true);
  expect(isRetriable('Transfer', { idempotencyKey: 'abc' })).toBe(true);
  expect(isRetriable('Transfer', { idempotencyKey: '' })).toBe(false);
  expect(isRetriable('CreateProduct', {})).toBe(false);
  expect(isRetriable('Getaway', {})).toBe(false);
});

it('names replicas as an ipv4 list or every address of a DNS name; one host:port is one server', () => {
  expect(channelTarget('127.0.0.1:1,127.0.0.1:2')).toBe('ipv4:127.0.0.1:1,127.0.0.1:2');
  expect(channelTarget('dns:///qm-wallet:50053')).toBe('dns:///qm-wallet:50053');
  expect([hasReplicas('127.0.0.1:1,127.0.0.1:2'), hasReplicas('dns:///qm-wallet:50053')]).toEqual([
    true,
    true,
  ]);
  expect(hasReplicas('127.0.0.1:50053')).toBe(false);
});
