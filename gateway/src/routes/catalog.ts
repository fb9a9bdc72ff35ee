import {
  catalogV1,
  ListProductsQuery,
  PRODUCT_TYPES,
  ProductIdParams,
  ProductSchema,
  type Product,
} from '@qm/contracts';
import { formatMoney } from '@qm/platform';
import { z } from 'zod';
import type { GatewayDeps } from '../app';
import type { Api } from '../http/api';

const { ProductType } = catalogV1;

const TYPE_TO_PROTO: Record<(typeof PRODUCT_TYPES)[number], catalogV1.ProductType> = {
  Weapon: ProductType.PRODUCT_TYPE_WEAPON,
  Vehicle: ProductType.PRODUCT_TYPE_VEHICLE,
  Equipment: ProductType.PRODUCT_TYPE_EQUIPMENT,
  Ammunition: ProductType.PRODUCT_TYPE_AMMUNITION,
  Other: ProductType.PRODUCT_TYPE_OTHER,
};
const PROTO_TO_TYPE = Object.fromEntries(Object.entries(TYPE_TO_PROTO).map(([k, v]) => [v, k])) as Record<
  number,
  Product['type']
>;

export function productToRest(p: catalogV1.Product): Product {
  return {
    id: p.id,
    name: p.name,
    type: PROTO_TO_TYPE[p.type] ?? 'Other',
    price: formatMoney(p.pricePaise),
    description: p.description,
    stock: p.stock,
    manufacturerId: p.manufacturerId,
    status: p.status,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}

export function registerCatalogRoutes(api: Api, { clients }: GatewayDeps): void {
  api.route({
    method: 'get',
    path: '/api/products',
    tag: 'Products',
    summary: 'List products, newest first. With page/pageSize, X-Total-Count carries the total.',
    access: 'user',
    query: ListProductsQuery,
    response: z.array(ProductSchema),
    async handler({ query, res }) {
      const out = await clients.catalog.listProducts({
        type: query.type ? TYPE_TO_PROTO[query.type] : ProductType.PRODUCT_TYPE_UNSPECIFIED,
        query: query.q ?? '',
        manufacturerId: 0,
        page: query.page ?? (query.pageSize ? 1 : 0),
        pageSize: query.pageSize ?? (query.page ? 24 : 0),
      });
      res.setHeader('X-Total-Count', String(out.total));
      return out.products.map(productToRest);
    },
  });

  api.route({
    method: 'get',
    path: '/api/products/:id',
    tag: 'Products',
    summary: 'One product',
    access: 'user',
    params: ProductIdParams,
    response: ProductSchema,
    async handler({ params }) {
      const { product } = await clients.catalog.getProduct({ id: params.id });
      return productToRest(product!);
    },
  });
}
