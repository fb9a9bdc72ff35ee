import { CreateOrderBody, ORDER_MESSAGES, quantityProblem, totalPriceProblem } from '../src/rest';

const message = (body: unknown) => CreateOrderBody.safeParse(body).error?.issues[0]?.message;

describe('POST /api/orders body', () => {
  it('takes a product, a whole quantity and a two-decimal total', () => {
    expect(CreateOrderBody.parse({ productId: 7, quantity: 2, totalPrice: '2500.00' })).toEqual({
      productId: 7,
      quantity: 2,
      totalPrice: '2500.00',
    });
  });

  it("answers docs/product.md §5's messages", () => {
    expect(message({ productId: 7, quantity: 0, totalPrice: '0.00' })).toBe(ORDER_MESSAGES.quantityMin);
    expect(message({ productId: 7, quantity: 1.5, totalPrice: '1.00' })).toBe(ORDER_MESSAGES.quantityInteger);
    expect(message({ productId: 7, quantity: 1 })).toBe(ORDER_MESSAGES.totalPriceRequired);
    expect(message({ productId: 7, quantity: 1, totalPrice: 12.5 })).toBe(ORDER_MESSAGES.totalPriceFormat);
    expect(message({ productId: 7, quantity: 1, totalPrice: '12.505' })).toBe(
      ORDER_MESSAGES.totalPriceFormat,
    );
    expect(message({ productId: 7, quantity: 1, totalPrice: '123456789.00' })).toBe(
      ORDER_MESSAGES.totalPriceTooLarge,
    );
    expect(message({ quantity: 1, totalPrice: '1.00' })).toBe(ORDER_MESSAGES.productRequired);
  });
});

describe('the payment page rules', () => {
  it('keeps the quantity within 1 and the stock', () => {
    expect(quantityProblem(1, 5)).toBeUndefined();
    expect(quantityProblem(5, 5)).toBeUndefined();
    expect(quantityProblem(6, 5)).toBe(ORDER_MESSAGES.quantityAboveStock(5));
    expect(quantityProblem(0, 5)).toBe(ORDER_MESSAGES.quantityMin);
    expect(quantityProblem('', 5)).toBe(ORDER_MESSAGES.quantityRequired);
    expect(quantityProblem('2.5', 5)).toBe(ORDER_MESSAGES.quantityInteger);
  });

  it('reads totals as rupees with at most two decimals', () => {
    expect(totalPriceProblem('0.00')).toBeUndefined();
    expect(totalPriceProblem(' 99999999.99 ')).toBeUndefined();
    expect(totalPriceProblem('-1.00')).toBe(ORDER_MESSAGES.totalPriceFormat);
  });
});
