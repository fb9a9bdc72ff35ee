import { Anchor, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * The button of a list row that opens its detail. Its accessible name
 * starts with the visible text ("#12 details"), so speech users can say what they see.
 */
export function RowDetailButton({
  children,
  hidden = 'details',
  onClick,
  testId,
}: {
  children: ReactNode;
  /** Read after the visible text by screen readers only. */
  hidden?: string;
  onClick: () => void;
  testId?: string;
}) {
  return (
    <Anchor
      component="button"
      type="button"
      size="sm"
      fw={600}
      // Body text colour, always underlined: readable on the striped rows in both schemes (axe contrast).
      c="var(--mantine-color-text)"
      underline="always"
      onClick={onClick}
      style={{ whiteSpace: 'nowrap' }}
      data-testid={testId}
    >
      {children}
      <VisuallyHidden> {hidden}</VisuallyHidden>
    </Anchor>
  );
}
