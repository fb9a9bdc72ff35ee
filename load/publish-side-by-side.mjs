// What a transfer's two announcements cost sent one after another and side by side
// (packages/platform/src/events/outbox.ts): pairs of JetStream publishes with their
// acknowledgements, alternated in rounds, with the wall time, this client's CPU and nats-server's
// CPU per pair. Uses a scratch stream of its own, removed at the end.
//
//   node load/publish-side-by-side.mjs [pairs per round = 2000]
//
// Linux only (nats-server's CPU from /proc); loopback only.
import { connect } from 'nats';
import { loopbackOnly } from './lib/loopback.cjs';
import { cpuByComponent } from './lib/process-cpu.mjs';

const url = process.env.NATS_URL || 'nats://127.0.0.1:4222';
loopbackOnly(url);
const pairs = Math.max(100, Number(process.argv[2] || 2000));
const STREAM = 'QM_PUBLISH_SIDE_BY_SIDE';

const nc = await connect({ servers: url.replace(/^nats:\/\//, '') });
const jsm = await nc.jetstreamManager();
await jsm.streams.add({ name: STREAM, subjects: ['qm-publish-bench.>'], storage: 'file' });
const js = nc.jetstream();
// An event of a transfer's size, each with its own id, as the outbox publishes them.
const body = new TextEncoder().encode(JSON.stringify({ id: 'x'.repeat(36), data: { d: 'y'.repeat(200) } }));
let n = 0;
const publish = () => js.publish(`qm-publish-bench.e${n % 2}`, body, { msgID: `${process.pid}-${n++}` });

// The stack's nats-server in this network namespace, as the other cost scripts read it.
const natsCpuMs = () => cpuByComponent()['nats-server'] ?? 0;
const ownCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

const ways = {
  'one after another': async () => {
    await publish();
    await publish();
  },
  'side by side': () => Promise.all([publish(), publish()]),
};

async function round(way, count) {
  const [own, nats, start] = [ownCpuMs(), natsCpuMs(), performance.now()];
  for (let i = 0; i < count; i++) await ways[way]();
  const per = (ms) => +(ms / count).toFixed(3);
  return {
    way,
    'wall ms per pair': per(performance.now() - start),
    'client CPU ms': per(ownCpuMs() - own),
    'nats-server CPU ms': per(natsCpuMs() - nats),
  };
}

try {
  for (const way of Object.keys(ways)) await round(way, 500); // warm-up
  const rows = [];
  for (let r = 0; r < 3; r++) for (const way of Object.keys(ways)) rows.push(await round(way, pairs));
  console.table(rows);
} finally {
  await jsm.streams.delete(STREAM);
  await nc.close();
}
