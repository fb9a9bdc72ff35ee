import { catalogV1, productTypes } from '@qm/contracts/grpc';
import type { GrpcServer, UnaryImpl } from '@qm/platform';
import type {
  Catalog,
  ProductEdit,
  ProductLookup,
  StockAdjustment,
  StockReservationAsk,
} from './app/catalog';
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

export const productLookupFromProto = (req: catalogV1.GetProductRequest): ProductLookup => ({
  id: req.id,
  recordView: req.recordView,
});

export const productEditFromProto = (req: catalogV1.UpdateProductRequest): ProductEdit => ({
  id: req.id,
  version: req.version,
  // Unset fields stay unset: only the ones sent change.
  ...(req.name !== undefined && { name: req.name }),
  ...(req.pricePaise !== undefined && { pricePaise: req.pricePaise }),
  ...(req.description !== undefined && { description: req.description }),
  ...(req.stock !== undefined && { stock: req.stock }),
});

export const stockAdjustmentFromProto = (req: catalogV1.AdjustStockRequest): StockAdjustment => ({
  id: req.id,
  delta: req.delta,
});

export const reservationAskFromProto = (req: catalogV1.ReserveStockRequest): StockReservationAsk => ({
  productId: req.productId,
  quantity: req.quantity,
  reference: req.reference,
  ttlSeconds: req.ttlSeconds,
});

export const listRequestFromProto = (req: catalogV1.ListProductsRequest): ListRequest => ({
  ...req,
  // Unspecified lists every type; a value this build does not know is refused.
  type: req.type ? (productTypes.fromProto(req.type) ?? null) : undefined,
});

/**
 * Products in the read model are immutable (a change replaces the object), so each one's message is
 * built once however often it is listed.
 */
const messages = new WeakMap<ProductRecord, catalogV1.Product>();
export function productToProto(p: ProductRecord): catalogV1.Product {
  let m = messages.get(p);
  if (!m) messages.set(p, (m = buildProto(p)));
  return m;
}

function buildProto(p: ProductRecord): catalogV1.Product {
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

const withProduct = <T extends { product: ProductRecord | null }>(o: T) => ({
  ...o,
  product: o.product ? productToProto(o.product) : undefined,
});

/**
 * gRPC handlers: the request arrives decoded, the caller comes from the metadata (the gateway's
 * session) and an internal service's identity from its proof (@qm/platform service-identity), the
 * use case authorises and applies the rules on domain values, and AppErrors become gRPC statuses in
 * @qm/platform's server. Messages are mapped to and from the domain here and nowhere else.
 */
export function catalogHandlers(catalog: Catalog): UnaryImpl<typeof catalogV1.CatalogServiceService> {
  return {
    listProducts: async (req, ctx) => {
      const out = await catalog.list(ctx.caller, listRequestFromProto(req), req.ifNoneMatch);
      return { ...out, products: out.products.map(productToProto) };
    },
    getProduct: async (req, ctx) => ({
      product: productToProto(await catalog.get(ctx.caller, productLookupFromProto(req), ctx.service)),
    }),
    createProduct: async (req, ctx) => ({
      product: productToProto(await catalog.create(ctx.caller, newProductFromProto(req))),
    }),
    updateProduct: async (req, ctx) => ({
      product: productToProto(await catalog.update(ctx.caller, productEditFromProto(req))),
    }),
    deleteProduct: async (req, ctx) => {
      await catalog.remove(ctx.caller, req.id);
      return {};
    },
    adjustStock: async (req, ctx) => ({
      product: productToProto(await catalog.adjustStock(ctx.caller, stockAdjustmentFromProto(req))),
    }),
    // The orders service's own calls: its proven service identity, not a user, authorises them.
    reserveStock: async (req, ctx) =>
      withProduct(await catalog.reserveStock(ctx.service, reservationAskFromProto(req))),
    releaseStock: async (req, ctx) => withProduct(await catalog.releaseStock(ctx.service, req.reference)),
    commitStock: (req, ctx) => catalog.commitStock(ctx.service, req.reference),
    returnStock: (req, ctx) => catalog.returnStock(ctx.service, req.reference),
  };
}

export function addCatalogService(grpc: GrpcServer, catalog: Catalog): void {
  grpc.add(CATALOG_SERVICE, catalogV1.CatalogServiceService, catalogHandlers(catalog));
}
