import { catalogV1 } from '@qm/contracts';
import type { GrpcServer, UnaryImpl } from '@qm/platform';
import type { Catalog } from './app/catalog';

export const CATALOG_SERVICE = 'qm.catalog.v1.CatalogService';

/**
 * gRPC handlers: the request arrives decoded, the caller comes from the metadata (the gateway's
 * session) and an internal service's identity from its proof (@qm/platform service-identity), the use case authorises and applies the rules, and AppErrors become gRPC statuses in
 * @qm/platform's server.
 */
export function catalogHandlers(catalog: Catalog): UnaryImpl<typeof catalogV1.CatalogServiceService> {
  return {
    listProducts: (req, ctx) => catalog.list(ctx.caller, req),
    getProduct: (req, ctx) => catalog.get(ctx.caller, req),
    createProduct: (req, ctx) => catalog.create(ctx.caller, req),
    updateProduct: (req, ctx) => catalog.update(ctx.caller, req),
    deleteProduct: (req, ctx) => catalog.remove(ctx.caller, req),
    adjustStock: (req, ctx) => catalog.adjustStock(ctx.caller, req),
    // The orders service's own calls: its proven service identity, not a user, authorises them.
    reserveStock: (req, ctx) => catalog.reserveStock(ctx.service, req),
    releaseStock: (req, ctx) => catalog.releaseStock(ctx.service, req),
    commitStock: (req, ctx) => catalog.commitStock(ctx.service, req),
  };
}

export function addCatalogService(grpc: GrpcServer, catalog: Catalog): void {
  grpc.add(CATALOG_SERVICE, catalogV1.CatalogServiceService, catalogHandlers(catalog));
}
