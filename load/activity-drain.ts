// How fast the activity service stores a burst of activity.recorded events, and what each costs.
//   npx tsx load/activity-drain.ts [--events 2000] [--users 200]
// Publishes the burst to the running stack's NATS at once (as outboxes do after an outage or under
// load), waits until the activity consumer has acknowledged every one, and prints the wall time and
// the CPU per event of every process (from /proc). The events name users above SEEDED_USER_BASE that
// do not exist, so the log stays apart from real users' (their email is ""); `make dev` data only.
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { ACTIVITY_SUBJECT, type ActivityData } from '../packages/contracts/src/events';
import { streamOf } from '../packages/roster/src';
import { connectBus, createLogger, makeEvent } from '../packages/platform/src';
import { loopbackOnly } from './lib/loopback.cjs';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '2000' },
    users: { type: 'string', default: '200' },
    nats: { type: 'string', default: process.env.NATS_URL ?? 'nats://127.0.0.1:4222' },
    durable: { type: 'string', default: process.env.ACTIVITY_DURABLE ?? 'activity-store' },
  },
});
loopbackOnly(values.nats);
const EVENTS = Number(values.events);
const USERS = Number(values.users);
const USER_BASE = 2_000_000;
const ACTIONS = ['login', 'wallet_view', 'profile_view', 'order_view'];

async function main() {
  const { cpuByComponent, perOperation } = await import('./lib/process-cpu.mjs');
  const bus = await connectBus({ servers: values.nats, name: 'activity-drain', log: createLogger('drain') });
  const stream = bus.stream(streamOf('activity').name);
  const durable = bus.durable(values.durable);
  const backlog = async () => {
    const info = await bus.jsm.consumers.info(stream, durable);
    return info.num_pending + info.num_ack_pending;
  };
  if ((await backlog()) > 0) console.warn('the consumer already has a backlog; the figures include it');

  const run = randomUUID().slice(0, 8);
  const events = Array.from({ length: EVENTS }, (_, i) => {
    const userId = USER_BASE + (i % USERS);
    return makeEvent<ActivityData>(ACTIVITY_SUBJECT, {
      userId,
      username: `drain_${userId}`,
      action: ACTIONS[i % ACTIONS.length]!,
      details: `drain ${run} ${i}`,
    });
  });

  const before = cpuByComponent();
  const started = performance.now();
  // JetStream acknowledges each publish; 200 in flight keep NATS busy without a client-side queue.
  for (let i = 0; i < events.length; i += 200)
    await Promise.all(events.slice(i, i + 200).map((e) => bus.publish(ACTIVITY_SUBJECT, e)));
  const published = performance.now() - started;
  while ((await backlog()) > 0) await new Promise((r) => setTimeout(r, 50));
  const drained = performance.now() - started;
  const cpu = perOperation(before, cpuByComponent(), EVENTS);
  console.log(
    `${EVENTS} events of ${USERS} users: published in ${(published / 1000).toFixed(1)} s, all stored after ` +
      `${(drained / 1000).toFixed(1)} s (${Math.round(EVENTS / (drained / 1000))} events/s)`,
  );
  console.log(`CPU ms per event ${cpu.total.toFixed(2)}:`, cpu.per);
  await bus.close();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
