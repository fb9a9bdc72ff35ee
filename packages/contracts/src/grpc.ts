// `@qm/contracts/grpc`: the generated gRPC contracts (ts-proto), one namespace per service package
// (qm.<service>.v1), and the proto enum ⇄ REST name mappings. Node-only (@grpc/grpc-js).
export * as catalogV1 from './gen/qm/catalog/v1/catalog';
export * as identityV1 from './gen/qm/identity/v1/identity';
export * as assistantV1 from './gen/qm/assistant/v1/assistant';
export * as walletV1 from './gen/qm/wallet/v1/wallet';
export * as ordersV1 from './gen/qm/orders/v1/orders';
export * as supportV1 from './gen/qm/support/v1/support';
export * as activityV1 from './gen/qm/activity/v1/activity';
export * from './grpc/enums';
export * from './grpc/user-directory';
