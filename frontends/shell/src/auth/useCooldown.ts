import { useCallback, useEffect, useState } from 'react';

/** Seconds as mm:ss ("00:30"). */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * A resend cooldown (docs/product.md §9: a new code at most every 30 s): `start()` after each send; `remaining`
 * counts the whole seconds down to 0, ticking while it runs.
 */
export function useCooldown(seconds: number) {
  const [until, setUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (until === 0) return;
    const timer = window.setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= until) window.clearInterval(timer);
    }, 250);
    return () => window.clearInterval(timer);
  }, [until]);

  const start = useCallback(() => {
    const current = Date.now();
    setNow(current);
    setUntil(current + seconds * 1000);
  }, [seconds]);

  const remaining = until > now ? Math.ceil((until - now) / 1000) : 0;
  return { remaining, active: remaining > 0, label: formatCountdown(remaining), start };
}
