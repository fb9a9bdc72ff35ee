// `@qm/contracts/events`: the bus's streams, subjects and event payloads, shared by publishers and
// consumers. Subjects and stream names carry no environment prefix (the bus adds it).
export * from './events/streams';
export * from './events/activity';
export * from './events/identity';
export * from './events/catalog';
export * from './events/orders';
export * from './events/support';
export * from './events/wallet';
