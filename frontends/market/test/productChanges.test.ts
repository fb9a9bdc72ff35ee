import type { Product } from '../src/api';
import { productChanges } from '../src/productChanges';

const product: Product = {
  id: 7,
  name: 'Night vision scope',
  type: 'Weapon',
  price: '1250.50',
  description: 'Thermal imaging',
  stock: 10,
  manufacturerId: 3,
  status: 'active',
  createdAt: '2026-11-23T00:00:00.000Z',
  updatedAt: '2026-11-23T00:00:00.000Z',
  version: 4,
};
const opened = {
  name: product.name,
  price: product.price,
  stock: product.stock,
  description: product.description,
};

describe('Edit Product payload', () => {
  it('sends only the changed price with the version, never the stock read when the dialog opened', () => {
    expect(productChanges(product, { ...opened, price: 999.99 })).toEqual({ price: '999.99', version: 4 });
  });

  it('sends each changed field, as the API wants it', () => {
    expect(
      productChanges(product, { name: ' Scope Mk2 ', price: '1250.5', stock: '3', description: 'New' }),
    ).toEqual({ name: 'Scope Mk2', stock: 3, description: 'New', version: 4 });
  });

  it('sends nothing when nothing changed (the same price written differently included)', () => {
    expect(productChanges(product, { ...opened, price: 1250.5, name: ` ${product.name}` })).toBeUndefined();
  });
});
