import { type ReactNode, Suspense, useState } from 'react';

/** Whether `opened` has been true in this render or any before it. */
export function useOpenedOnce(opened: boolean): boolean {
  const [once, setOnce] = useState(opened);
  // Derived from an earlier render's props, as React allows: re-renders at once with the new state.
  if (opened && !once) setOnce(true);
  return once || opened;
}

/**
 * A lazy dialog, drawer or panel, mounted from its first opening on: its code is fetched when it is
 * first wanted, not with the page, and it then stays mounted, so that closing it still plays its exit
 * transition and opening it again is instant. Nothing shows while its code arrives.
 */
export function MountedFromFirstOpening({ opened, children }: { opened: boolean; children: ReactNode }) {
  return useOpenedOnce(opened) ? <Suspense fallback={null}>{children}</Suspense> : null;
}
