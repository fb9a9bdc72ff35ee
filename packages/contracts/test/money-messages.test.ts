import {
  formatRupees,
  ORDER_LIMITS,
  ORDER_MESSAGES,
  PRODUCT_LIMITS,
  PRODUCT_MESSAGES,
  WALLET_LIMITS,
  WALLET_MESSAGES,
} from '../src/rest';

// Every rupee amount a message or hint writes is in the one Indian format (once the top-up error
// said "₹100,000" under a hint saying "₹1,00,000"). The messages are literals (no formatter is built
// while a bundle starts), and here each is the formatter's own output for its limit.
const rupees = (paise: number) => formatRupees(paise / 100);

describe('rupee amounts in messages', () => {
  it('formatRupees groups the Indian way and writes paise only when there are any', () => {
    expect(formatRupees(100_000)).toBe('₹1,00,000');
    expect(formatRupees(100)).toBe('₹100');
    expect(formatRupees(0)).toBe('₹0');
    expect(formatRupees(99_999_999.99)).toBe('₹9,99,99,999.99');
  });

  it("the Add Money range keeps the product reference's words, with its limits in the Indian format", () => {
    expect(WALLET_MESSAGES.topUpRange).toBe(
      `Amount must be between ${rupees(WALLET_LIMITS.topUpMinPaise)} and ${rupees(WALLET_LIMITS.topUpMaxPaise)}`,
    );
  });

  it('the largest amount, price and total are written as the formatter writes them', () => {
    expect(WALLET_MESSAGES.amountTooLarge).toBe(
      `Amount must be at most ${rupees(WALLET_LIMITS.amountMaxPaise)}`,
    );
    expect(PRODUCT_MESSAGES.priceRange).toBe(
      `Price must be between ${rupees(0)} and ${rupees(PRODUCT_LIMITS.pricePaiseMax)}`,
    );
    expect(ORDER_MESSAGES.totalPriceTooLarge).toBe(
      `Total price must be at most ${rupees(ORDER_LIMITS.totalMaxPaise)}`,
    );
  });

  it('no message writes a rupee amount the western way', () => {
    const texts = [WALLET_MESSAGES, PRODUCT_MESSAGES, ORDER_MESSAGES].flatMap((messages) =>
      Object.values(messages).filter((m): m is string => typeof m === 'string'),
    );
    for (const text of texts) expect(text).not.toMatch(/₹[\d,]*\d{3},\d{3}/);
  });
});
