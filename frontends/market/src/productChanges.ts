import { ProductEditFields, type UpdateProductInput } from '@qm/contracts/rest';
import type { Product } from './api';
import { priceToApi } from './api';

/** The Edit Product form's values (NumberInputs hand over numbers or strings). */
export type EditValues = {
  name: string;
  price: number | string;
  stock: number | string;
  description: string;
};

/**
 * The PATCH body for an edit: only the fields the user changed, and the version of the product the
 * dialog opened with. A field left alone is not sent, so saving a new price never writes back the
 * stock read when the dialog opened (a purchase may have moved it since); the version makes the
 * server refuse the edit (409) if anything changed the product meanwhile. Undefined: nothing changed.
 */
export function productChanges(product: Product, values: EditValues): UpdateProductInput | undefined {
  const fields = ProductEditFields.parse(values);
  const changes: Omit<UpdateProductInput, 'version'> = {};
  if (fields.name !== undefined && fields.name !== product.name) changes.name = fields.name;
  if (fields.description !== undefined && fields.description !== product.description)
    changes.description = fields.description;
  if (fields.price !== undefined) {
    const price = priceToApi(fields.price);
    if (price !== product.price) changes.price = price;
  }
  if (fields.stock !== undefined && fields.stock !== product.stock) changes.stock = fields.stock;
  return Object.keys(changes).length ? { ...changes, version: product.version } : undefined;
}
