import { ORDER_MESSAGES as MSG } from '@qm/contracts/rest';
import { GrpcStatus } from '@qm/platform';
import {
  assertMayBuy,
  pastDeadline,
  priceOrder,
  type ProductFacts,
  undoFor,
  type UserFacts,
} from '../src/domain/order';

const buyer: UserFacts = {
  id: 7,
  username: 'sepoy',
  firstName: 'Asha',
  lastName: 'Rao',
  email: 'asha@example.test',
  phoneNumber: '',
  role: 'Army',
  status: 'approved',
  isAdmin: false,
};
const product: ProductFacts = {
  id: 3,
  name: 'Radio',
  type: 'Equipment',
  description: '',
  pricePaise: 1250_50,
  stock: 4,
  manufacturerId: 9,
};

describe('who may buy what (docs/product.md §5, §6)', () => {
  it('an approved non-admin buys; admins and unapproved users are refused', () => {
    expect(assertMayBuy(buyer, ['Army'])).toBe(buyer);
    expect(() => assertMayBuy(buyer, ['Admin'])).toThrow(MSG.adminCannotPurchase);
    expect(() => assertMayBuy({ ...buyer, status: 'pending' }, ['Army'])).toThrow(MSG.notApproved);
    expect(() => assertMayBuy(null, ['Army'])).toThrow(MSG.notApproved);
  });

  it('the server prices the order: a differing total is the price-changed conflict', () => {
    expect(priceOrder(buyer, product, { productId: 3, quantity: 2, totalPaise: 2501_00 })).toEqual({
      unitPricePaise: 1250_50,
      totalPaise: 2501_00,
    });
    expect(() => priceOrder(buyer, product, { productId: 3, quantity: 2, totalPaise: 2500_00 })).toThrow(
      expect.objectContaining({ code: GrpcStatus.FAILED_PRECONDITION, message: MSG.priceChanged }),
    );
    expect(() => priceOrder(buyer, product, { productId: 3, quantity: 5, totalPaise: 6252_50 })).toThrow(
      MSG.quantityAboveStock(4),
    );
    expect(() =>
      priceOrder({ ...buyer, id: 9 }, product, { productId: 3, quantity: 1, totalPaise: 1250_50 }),
    ).toThrow(MSG.ownProduct);
    expect(() =>
      priceOrder(buyer, { ...product, stock: 0 }, { productId: 3, quantity: 1, totalPaise: 1250_50 }),
    ).toThrow(MSG.insufficientStock);
  });
});

describe('compensation', () => {
  it('undoes only what may have taken effect', () => {
    expect(undoFor({ step: 'reserve', totalPaise: 100 }, true)).toEqual({ stock: false, hold: false });
    expect(undoFor({ step: 'reserve', totalPaise: 100 }, false)).toEqual({ stock: true, hold: false });
    // A refused payment may have been made by another driver: cancelled all the same (ADR 043).
    expect(undoFor({ step: 'hold', totalPaise: 100 }, true)).toEqual({ stock: true, hold: true });
    expect(undoFor({ step: 'hold', totalPaise: 100 }, false)).toEqual({ stock: true, hold: true });
    expect(undoFor({ step: 'pay', totalPaise: 100 }, true)).toEqual({ stock: true, hold: true });
    expect(undoFor({ step: 'pay', totalPaise: 0 }, false)).toEqual({ stock: true, hold: false });
  });

  it('gives up on an unpaid order at its deadline, never on a paid one', () => {
    const deadlineAt = new Date(Date.now() - 1);
    expect(pastDeadline({ step: 'pay', deadlineAt }, new Date())).toBe(true);
    expect(pastDeadline({ step: 'commit', deadlineAt }, new Date())).toBe(false);
  });
});
