// Generated gRPC contracts, one namespace per service package (qm.<service>.v1).
export * as catalogV1 from './gen/qm/catalog/v1/catalog';
