import type { EventBus } from '@qm/platform';

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
