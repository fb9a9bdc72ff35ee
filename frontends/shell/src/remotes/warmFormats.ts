let started = false;

/**
 * Starts formatsWorker.ts once, on its own thread, before a remote page shows money or dates. The first
 * Intl formatter of a page loads locale data: 15–40 ms of Chromium's main thread on this machine, a long
 * task of 60–160 ms at Lighthouse's phone slowdown, in the middle of drawing the market's first cards.
 * Made first in a worker, it costs the page 0.1–0.5 ms (docs/performance/2026-12-03-shared-chunk-and-formats.md).
 * Where workers are not available, the page makes its formatters itself, as before.
 */
export function warmFormats(): void {
  if (started || typeof Worker === 'undefined') return;
  started = true;
  try {
    new Worker(new URL('./formatsWorker.ts', import.meta.url));
  } catch {
    // A browser or policy that refuses the worker: the page's formatters load the data themselves.
  }
}
