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
      // One line (a username never breaks inside it); where the card cannot hold it, an ellipsis rather
      // than text drawn over the status badge beside it.
      style={{ whiteSpace: 'nowrap', maxWidth: '100%', overflow: 'hidden', textOverflow: 'ellipsis' }}
      data-testid={testId}
    >
      {children}
      <VisuallyHidden> {hidden}</VisuallyHidden>
    </Anchor>
  );
}
