import { NumberInput, type NumberInputProps } from '@mantine/core';
import { PRODUCT_LIMITS } from '@qm/contracts/rest';

/** Price in rupees: docs/product.md §2 "step 0.01, min 0"; the form sends it as a string with two decimals. */
export function PriceInput(props: NumberInputProps) {
  return (
    <NumberInput
      label="Price"
      required
      leftSection="₹"
      min={0}
      step={0.01}
      decimalScale={2}
      allowNegative={false}
      thousandSeparator=","
      {...props}
    />
  );
}

/** Whole units in stock, 0 to the catalogue's maximum. */
export function StockInput(props: NumberInputProps) {
  return (
    <NumberInput
      required
      min={0}
      max={PRODUCT_LIMITS.stockMax}
      step={1}
      allowDecimal={false}
      allowNegative={false}
      {...props}
    />
  );
}
