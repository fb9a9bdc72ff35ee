// Generated gRPC contracts, one namespace per service package (qm.<service>.v1).
export * as catalogV1 from './gen/qm/catalog/v1/catalog';
export * as identityV1 from './gen/qm/identity/v1/identity';
export * as assistantV1 from './gen/qm/assistant/v1/assistant';

// REST schemas (zod) shared by the gateway and the frontends.
export * from './api/catalog';
export * from './api/identity';
export * from './api/assistant';
export * from './api/numbers';
