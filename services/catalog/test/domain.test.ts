import { catalogV1 } from '@qm/contracts/grpc';
import { AppError, GrpcStatus } from '@qm/platform';
import {
  CHUNK_MAX_BYTES,
  estimatedBytes,
  parseListRequest,
  type Searchable,
  select,
  trimChunk,
} from '../src/domain/listing';
import {
  assertMayAdjust,
  assertMayCreate,
  assertMayEdit,
  searchForm,
  validChanges,
  validDelta,
  validNewProduct,
  validVersion,
} from '../src/domain/product';
import { assertOrdersService, expiryOf, validQuantity, validReference } from '../src/domain/stock';
import { listRequestFromProto } from '../src/server';

const T = catalogV1.ProductType;

function product(id: number, overrides: Partial<Searchable> = {}): Searchable {
  const p = {
    id,
    name: `Product ${id}`,
    type: 'Equipment' as const,
    pricePaise: 100,
    description: '',
    stock: 1,
    manufacturerId: 1,
    status: 'active',
    createdAt: new Date(0),
    updatedAt: new Date(0),
    version: 1,
    ...overrides,
  };
  return { ...p, nameSearch: searchForm(p.name), descriptionSearch: searchForm(p.description) };
}

const listReq = (r: Partial<catalogV1.ListProductsRequest>) =>
  listRequestFromProto(catalogV1.ListProductsRequest.create(r));

const refused = (fn: () => unknown, code: GrpcStatus, message?: string) => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe(code);
    if (message) expect((err as AppError).message).toBe(message);
    return;
  }
  throw new Error('expected a refusal');
};

describe('listing rules', () => {
  const sorted = Array.from({ length: 10 }, (_, i) =>
    product(10 - i, { type: i % 2 ? 'Weapon' : 'Vehicle' }),
  );

  it('pages over the filtered list and counts all matches', () => {
    const { filter, paging } = parseListRequest(
      listReq({ type: T.PRODUCT_TYPE_WEAPON, page: 2, pageSize: 2 }),
    );
    const out = select(sorted, filter, paging);
    expect(out.products.map((p) => p.id)).toEqual([5, 3]);
    expect(out.total).toBe(5);
    expect(out.nextBeforeId).toBe(0);
  });

  it('chunks by id, continuing below before_id', () => {
    const first = select(sorted, {}, { kind: 'chunk', beforeId: 0, size: 4 });
    expect(first.products.map((p) => p.id)).toEqual([10, 9, 8, 7]);
    expect(first.nextBeforeId).toBe(7);
    const last = select(sorted, {}, { kind: 'chunk', beforeId: 3, size: 4 });
    expect(last.products.map((p) => p.id)).toEqual([2, 1]);
    expect(last.nextBeforeId).toBe(0);
  });

  it('keeps a chunk under the byte budget whatever the descriptions weigh', () => {
    const heavy = Array.from({ length: 400 }, (_, i) => product(400 - i, { description: 'ह'.repeat(5000) }));
    const out = select(heavy, {}, { kind: 'chunk', beforeId: 0, size: 5000 });
    const bytes = out.products.reduce((n, p) => n + estimatedBytes(p), 0);
    expect(bytes).toBeLessThanOrEqual(CHUNK_MAX_BYTES);
    expect(out.products.length).toBeGreaterThan(100);
    expect(out.nextBeforeId).toBe(out.products.at(-1)!.id);
    const real = out.products.reduce(
      (n, p) => n + Buffer.byteLength(p.description) + Buffer.byteLength(p.name),
      0,
    );
    expect(real).toBeLessThan(4 * 1024 * 1024);
    expect(trimChunk(heavy, 5000).more).toBe(true);
  });

  it('normalises search text and refuses bad paging', () => {
    expect(parseListRequest(listReq({ query: '  ÑANDÚ ' })).filter.query).toBe('ñandú');
    refused(() => parseListRequest(listReq({ page: 1, pageSize: 101 })), GrpcStatus.INVALID_ARGUMENT);
    refused(() => parseListRequest(listReq({ page: -1 })), GrpcStatus.INVALID_ARGUMENT);
    // The same rule and messages as every list (@qm/platform validPaging, the REST schemas).
    expect(() => parseListRequest(listReq({ page: 1_000_001 }))).toThrow('Page must be at most 1,000,000');
    expect(() => parseListRequest(listReq({ page: 1, pageSize: -1 }))).toThrow(
      'Page size must be between 1 and 100',
    );
    expect(parseListRequest(listReq({ page: 3 })).paging).toEqual({ kind: 'page', page: 3, pageSize: 24 });
    refused(() => parseListRequest(listReq({ query: 'x'.repeat(201) })), GrpcStatus.INVALID_ARGUMENT);
    refused(
      () => parseListRequest(listReq({ type: 42 as catalogV1.ProductType })),
      GrpcStatus.INVALID_ARGUMENT,
    );
    expect(parseListRequest(listReq({ pageSize: 999_999 })).paging).toEqual({
      kind: 'chunk',
      beforeId: 0,
      size: 5000,
    });
  });
});

describe('product rules', () => {
  const ok = { name: ' Radio ', type: 'Equipment' as const, pricePaise: 0, description: ' d ', stock: 0 };

  it('trims and accepts the bounds', () => {
    expect(validNewProduct(ok)).toEqual({
      name: 'Radio',
      type: 'Equipment',
      pricePaise: 0,
      description: 'd',
      stock: 0,
    });
    expect(validNewProduct({ ...ok, pricePaise: 9_999_999_999, stock: 1_000_000 }).pricePaise).toBe(
      9_999_999_999,
    );
  });

  it('refuses out-of-bounds values with the REST messages', () => {
    refused(
      () => validNewProduct({ ...ok, name: '\t ' }),
      GrpcStatus.INVALID_ARGUMENT,
      'Product name is required',
    );
    refused(() => validNewProduct({ ...ok, pricePaise: 1.5 }), GrpcStatus.INVALID_ARGUMENT);
    refused(() => validChanges({ stock: 2.5 }), GrpcStatus.INVALID_ARGUMENT, 'Stock must be a whole number');
    refused(() => validChanges({}), GrpcStatus.INVALID_ARGUMENT);
    refused(
      () => validVersion(0),
      GrpcStatus.INVALID_ARGUMENT,
      'Version is required: the version of the product the change is based on',
    );
    refused(() => validDelta(0), GrpcStatus.INVALID_ARGUMENT);
    refused(() => validReference('has spaces'), GrpcStatus.INVALID_ARGUMENT);
    refused(() => validReference('  '), GrpcStatus.INVALID_ARGUMENT);
    expect(validReference('order-42:reserve')).toBe('order-42:reserve');
    refused(() => validQuantity(0), GrpcStatus.INVALID_ARGUMENT);
    refused(() => expiryOf(86_401, new Date()), GrpcStatus.INVALID_ARGUMENT);
    expect(expiryOf(0, new Date(0)).getTime()).toBe(15 * 60 * 1000);
  });

  it('lets manufacturers create and only owners edit or set stock; only the orders service reserves', () => {
    const maker = { userId: 1, username: 'm', roles: ['Manufacturer' as const] };
    const army = { userId: 2, username: 'a', roles: ['Army' as const] };
    const p = product(1, { manufacturerId: 1 });
    expect(() => assertMayCreate(maker)).not.toThrow();
    refused(() => assertMayCreate(army), GrpcStatus.PERMISSION_DENIED);
    refused(() => assertMayEdit(army, p), GrpcStatus.PERMISSION_DENIED);
    refused(() => assertMayEdit({ ...maker, userId: 3 }, p), GrpcStatus.PERMISSION_DENIED);
    expect(() => assertMayAdjust(maker, p)).not.toThrow();
    refused(() => assertMayAdjust(army, p), GrpcStatus.PERMISSION_DENIED);
    refused(() => assertMayAdjust({ ...maker, userId: 3 }, p), GrpcStatus.PERMISSION_DENIED);
    expect(() => assertOrdersService('orders')).not.toThrow();
    for (const service of [undefined, 'wallet', 'gateway'])
      refused(() => assertOrdersService(service), GrpcStatus.PERMISSION_DENIED);
  });
});
