// `@qm/contracts/rules`: the REST rules that need no zod, for a remote page's first screen. A remote
// bundles what it takes from here, instead of the shared `@qm/contracts/rest`, whose schemas bring zod
// (23 KiB gzip, and 180 ms of evaluation on Lighthouse's phone) before the page can draw
// (docs/adr/037-first-screens-without-zod.md). `@qm/contracts/rest` exports the same values. Nothing
// here may import zod or a module that does (frontends/market/test/first-screen-imports.test.ts).
export * from './api/display';
export * from './api/money';
export * from './api/product-types';
export * from './api/wallet-rules';
