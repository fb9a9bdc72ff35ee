import { connectBus, type EventBus, type EventEnvelope } from '@qm/platform';
import { INFRA, testLog } from './infra';

/**
 * Every message a JetStream stream of the bus holds, oldest first, decoded (the events' envelopes).
 * `name` is the stream's unprefixed name, as the services declare it. JetStream keeps one message
 * per Nats-Msg-Id within its duplicate window, so a republished event shows once.
 */
export async function streamMessages<T>(bus: EventBus, name: string): Promise<T[]> {
  const stream = bus.stream(name);
  const info = await bus.jsm.streams.info(stream).catch(() => undefined);
  if (!info || info.state.messages === 0) return [];
  const messages: T[] = [];
  for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++)
    messages.push((await bus.jsm.streams.getMessage(stream, { seq })).json<T>());
  return messages;
}

/** The newest event published on `subject` (unprefixed) of the stream `name`, read back from it. */
export async function lastEventOn<T>(name: string, subject: string): Promise<EventEnvelope<T>> {
  const bus = await connectBus({ servers: INFRA.NATS_URL, name: 'last-event-test', log: testLog() });
  try {
    const stream = await bus.jsm.streams.get(bus.stream(name));
    const message = await stream.getMessage({ last_by_subj: bus.subject(subject) });
    return message.json<EventEnvelope<T>>();
  } finally {
    await bus.close();
  }
}

/** Removes a test's durable consumers from the stream `name`, which outlives the test (gone already: fine). */
export async function deleteDurables(name: string, durables: string[]): Promise<void> {
  const bus = await connectBus({ servers: INFRA.NATS_URL, name: 'test-cleanup', log: testLog() });
  try {
    for (const durable of durables)
      await bus.jsm.consumers.delete(bus.stream(name), bus.durable(durable)).catch(() => undefined);
  } finally {
    await bus.close();
  }
}

/**
 * The event as made `minutes` ago: what a copy published again after the duplicate window looks
 * like (the outbox relay keeps the stored `occurredAt`), so consumers treat it as one that may repeat.
 */
export const madeAgo = <T extends { occurredAt: string }>(minutes: number, event: T): T => ({
  ...event,
  occurredAt: new Date(Date.now() - minutes * 60_000).toISOString(),
});
