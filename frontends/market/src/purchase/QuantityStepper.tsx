import { ActionIcon, Group, NumberInput } from '@mantine/core';
import { IconMinus, IconPlus } from '@tabler/icons-react';
import { clampNote, clampQuantity } from './rules';

/** A whole number from 1 to the stock, or '' while the input is being retyped. */
export type QuantityValue = number | '';

export interface QuantityStepperProps {
  value: QuantityValue;
  stock: number;
  onChange: (quantity: QuantityValue) => void;
  /** Says why a typed number was changed (over the stock, under 1), or clears the note (undefined). */
  onNote?: (note: string | undefined) => void;
  disabled?: boolean;
}

/** docs/product.md §2: minus, plus and a number input, holding a whole number from 1 up to the stock. */
export function QuantityStepper({ value, stock, onChange, onNote, disabled }: QuantityStepperProps) {
  const set = (next: number | string) => {
    onNote?.(clampNote(Number(next), stock));
    onChange(clampQuantity(next, stock));
  };
  const current = value === '' ? 1 : value;
  return (
    <Group gap="xs" wrap="nowrap">
      <ActionIcon
        variant="default"
        size="lg"
        aria-label="Decrease quantity"
        onClick={() => set(current - 1)}
        disabled={disabled || current <= 1}
      >
        <IconMinus size={16} />
      </ActionIcon>
      <NumberInput
        aria-label="Quantity"
        value={value}
        // A number outside 1..stock is not taken as typed: the quantity goes to the nearest allowed one
        // and the note says why. Mantine's strict clamp asks isAllowed first, which sees the attempt.
        // An emptied input may be retyped and reads 1 when left empty.
        onChange={(next) => (next === '' ? onChange('') : set(next))}
        onBlur={() => value === '' && onChange(1)}
        isAllowed={({ floatValue }) => {
          if (floatValue === undefined) return true;
          const note = clampNote(floatValue, stock);
          onNote?.(note);
          if (note) onChange(clampQuantity(floatValue, stock));
          return !note;
        }}
        min={1}
        max={Math.max(1, stock)}
        step={1}
        allowDecimal={false}
        allowNegative={false}
        clampBehavior="strict"
        hideControls
        disabled={disabled}
        w={80}
        styles={{ input: { textAlign: 'center' } }}
      />
      <ActionIcon
        variant="default"
        size="lg"
        aria-label="Increase quantity"
        onClick={() => set(current + 1)}
        disabled={disabled || current >= stock}
      >
        <IconPlus size={16} />
      </ActionIcon>
    </Group>
  );
}
