// The light helpers; heavier ones are imported by path: @qm/testkit/src/gateway (the in-process
// gateway), @qm/testkit/src/identity-stack (gateway + identity), @qm/testkit/src/keycloak,
// @qm/testkit/src/maildev, @qm/testkit/src/fake-identity (LookupUser from a table).
export * from './callers';
export * from './infra';
export * from './streams';
