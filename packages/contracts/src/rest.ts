// `@qm/contracts/rest`: the REST schemas (zod) and the rules behind them, shared by the gateway,
// the services and the browser. Browser-safe: nothing here may import node-only code.
export * from './api/catalog';
export * from './api/product-types';
export * from './api/identity';
export * from './api/assistant';
export * from './api/numbers';
export * from './api/wallet';
export * from './api/wallet-rules';
export * from './api/orders';
export * from './api/support';
export * from './api/stats';
export * from './api/activity';
export * from './api/chat';
export * from './api/page-data';
export * from './api/display';
export * from './api/money';
