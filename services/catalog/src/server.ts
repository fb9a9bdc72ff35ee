import { catalogV1, productTypes } from '@qm/contracts/grpc';
import type { GrpcServer, UnaryImpl } from '@qm/platform';
import type { Catalog } from './app/catalog';
import type { ListRequest } from './domain/listing';
import type { NewProductInput, ProductRecord } from './domain/product';

export const CATALOG_SERVICE = 'qm.catalog.v1.CatalogService';

// ---- proto ⇄ domain: the domain knows product types by name, the wire by enum value ------------

export const newProductFromProto = (req: catalogV1.CreateProductRequest): NewProductInput => ({
  name: req.name,
  type: productTypes.fromProto(req.type),
  pricePaise: req.pricePaise,
  description: req.description,
  stock: req.stock,
});

export const listRequestFromProto = (req: catalogV1.ListProductsRequest): ListRequest => ({
  ...req,
  // Unspecified lists every type; a value this build does not know is refused.
  type: req.type ? (productTypes.fromProto(req.type) ?? null) : undefined,
});

export function productToProto(p: ProductRecord): catalogV1.Product {
  return {
    id: p.id,
    name: p.name,
    type: productTypes.toProto(p.type),
    pricePaise: p.pricePaise,
    description: p.description,
    stock: p.stock,
    manufacturerId: p.manufacturerId,
    status: p.status,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
    version: p.version,
  };
}

/**
 * gRPC handlers: the request arrives decoded, the caller comes from the metadata (the gateway's
 * session) and an internal service's identity from its proof (@qm/platform service-identity), the use case authorises and applies the rules, and AppErrors become gRPC statuses in
 * @qm/platform's server.
 */
export function catalogHandlers(catalog: Catalog): UnaryImpl<typeof catalogV1.CatalogServiceService> {
  return {
    listProducts: (req, ctx) => catalog.list(ctx.caller, req),
    getProduct: (req, ctx) => catalog.get(ctx.caller, req, ctx.service),
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
