// Generated gRPC contracts, one namespace per service package (qm.<service>.v1).
export * as catalogV1 from './gen/qm/catalog/v1/catalog';

// REST schemas (zod) shared by the gateway and the frontends.
export * from './api/catalog';
