import { catalogV1, productTypes } from '@qm/contracts/grpc';
import {
  CreateProductBody,
  DeletedProductSchema,
  formatMoney,
  ListProductsQuery,
  acceptedPaise,
  type Product,
  PRODUCT_MESSAGES,
  ProductIdParams,
  ProductSchema,
  UpdateProductBody,
} from '@qm/contracts/rest';

import { z } from 'zod';
import type { GatewayDeps } from '../deps';
import type { Api } from '../http/api';
import { type CachedListing, createListCache, sendListing } from './catalog-list-cache';

const { ProductType } = catalogV1;

/** Most chunks the plain list assembles (each up to 5,000 products): a guard, not a real limit. */
const MAX_CHUNKS = 1000;

export function productToRest(p: catalogV1.Product): Product {
  return {
    id: p.id,
    name: p.name,
    type: productTypes.fromProto(p.type) ?? 'Other',
    price: formatMoney(p.pricePaise),
    description: p.description,
    stock: p.stock,
    manufacturerId: p.manufacturerId,
    status: p.status,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    version: p.version,
  };
}

export function registerCatalogRoutes(api: Api, { clients }: GatewayDeps): void {
  const lists = createListCache();

  api.route({
    method: 'get',
    path: '/api/products',
    tag: 'Products',
    summary:
      'List products, newest first (docs/product.md §7: an array). Optional type and q (name/description search) ' +
      'filters; with page/pageSize one page is returned and X-Total-Count carries the total.',
    access: 'user',
    query: ListProductsQuery,
    response: z.array(ProductSchema),
    async handler({ query, req, res }) {
      const filters = {
        type: query.type ? productTypes.toProto(query.type) : ProductType.PRODUCT_TYPE_UNSPECIFIED,
        query: query.q ?? '',
        manufacturerId: 0,
        ids: [],
      };
      if (query.page || query.pageSize) {
        const out = await clients.catalog.listProducts({
          ...filters,
          page: query.page ?? 1,
          pageSize: query.pageSize ?? 24,
          beforeId: 0,
          ifNoneMatch: '',
        });
        res.setHeader('X-Total-Count', String(out.total));
        return out.products.map(productToRest);
      }
      // The whole list: served from the cache while the catalogue is unchanged, otherwise
      // assembled from chunks so no gRPC message grows with the catalogue.
      const key = `${filters.type}|${filters.query}`;
      const cached = lists.get(key);
      const first = await clients.catalog.listProducts({
        ...filters,
        page: 0,
        pageSize: 0,
        beforeId: 0,
        ifNoneMatch: cached?.etag ?? '',
      });
      if (first.notModified && cached) return sendListing(req, res, cached);
      const entry = await lists.build(key, first.etag, async (): Promise<CachedListing> => {
        const products: Product[] = first.products.map(productToRest);
        let etag = first.etag;
        let next = first.nextBeforeId;
        for (let i = 0; next && i < MAX_CHUNKS; i++) {
          const out = await clients.catalog.listProducts({
            ...filters,
            page: 0,
            pageSize: 0,
            beforeId: next,
            ifNoneMatch: '',
          });
          for (const p of out.products) products.push(productToRest(p));
          // Changed while being read: correct to send, but not to keep under the first etag.
          if (out.etag !== etag) etag = '';
          next = out.products.length ? out.nextBeforeId : 0;
        }
        return { etag, total: products.length, json: Buffer.from(JSON.stringify(products)) };
      });
      return sendListing(req, res, entry);
    },
  });

  registerProductReadRoutes(api, clients);

  api.route({
    method: 'post',
    path: '/api/products',
    tag: 'Products',
    summary: 'Create a product (Manufacturers). Price is a string with at most two decimals, stock a number.',
    access: { roles: ['Manufacturer'] },
    body: CreateProductBody,
    response: ProductSchema,
    status: 201,
    async handler({ body }) {
      const { product } = await clients.catalog.createProduct({
        name: body.name,
        type: productTypes.toProto(body.type),
        pricePaise: acceptedPaise(body.price),
        description: body.description,
        stock: body.stock,
      });
      return productToRest(product!);
    },
  });

  api.route({
    method: 'patch',
    path: '/api/products/:id',
    tag: 'Products',
    summary:
      "Edit a product's name, description, price or stock (its own manufacturer only). Send only the " +
      'fields that change and the `version` of the product they are based on; 409 "This product was ' +
      'changed by someone else. Reload it and try again." when it has changed since (a purchase moving ' +
      'its stock counts).',
    access: 'user',
    params: ProductIdParams,
    body: UpdateProductBody,
    response: ProductSchema,
    errors: {
      404: PRODUCT_MESSAGES.notFound,
      409: `"${PRODUCT_MESSAGES.changedElsewhere}": the product changed since \`version\``,
    },
    async handler({ params, body }) {
      const { product } = await clients.catalog.updateProduct({
        id: params.id,
        name: body.name,
        description: body.description,
        pricePaise: body.price === undefined ? undefined : acceptedPaise(body.price),
        stock: body.stock,
        version: body.version,
      });
      return productToRest(product!);
    },
  });

  api.route({
    method: 'delete',
    path: '/api/products/:id',
    tag: 'Products',
    summary: 'Delete a product (its own manufacturer only)',
    access: 'user',
    params: ProductIdParams,
    errors: { 404: PRODUCT_MESSAGES.notFound },
    response: DeletedProductSchema,
    async handler({ params }) {
      await clients.catalog.deleteProduct({ id: params.id });
      return { message: 'Product deleted' };
    },
  });
}

/** One product, and its page's view (recorded by a POST of its own, never by the GET). */
function registerProductReadRoutes(api: Api, clients: GatewayDeps['clients']): void {
  api.route({
    method: 'get',
    path: '/api/products/:id',
    tag: 'Products',
    summary: 'One product (a read only: the page records its view with POST /api/products/{id}/views)',
    access: 'user',
    params: ProductIdParams,
    errors: { 404: PRODUCT_MESSAGES.notFound },
    response: ProductSchema,
    async handler({ params }) {
      const { product } = await clients.catalog.getProduct({ id: params.id, recordView: false });
      return productToRest(product!);
    },
  });

  // Not on the GET, which a cross-site link or a prefetch can trigger (SameSite=Lax sends the cookie).
  api.route({
    method: 'post',
    path: '/api/products/:id/views',
    tag: 'Products',
    summary: "Records that the caller opened the product's page (a product_view activity); 204.",
    access: 'user',
    params: ProductIdParams,
    // No body: documented as the 204 it answers (the API fuzzer checks every status is documented).
    status: 204,
    errors: { 404: PRODUCT_MESSAGES.notFound },
    async handler({ params }) {
      await clients.catalog.getProduct({ id: params.id, recordView: true });
      return undefined;
    },
  });
}
