// Code inside page.evaluate() and addInitScript() runs in the browser:
/* global document, requestAnimationFrame, window */
// Accessibility checks shared by the browser journeys: axe-core (WCAG 2.1 A and AA rules) on the page
// as it stands, horizontal overflow, and a watch on the console and the Content Security Policy.
import AxeBuilder from '@axe-core/playwright';

/** The rule sets run: WCAG 2.0 and 2.1, levels A and AA (contrast is AA: 4.5:1, 3:1 for large text). */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/**
 * Rules axe marks experimental, run besides the tags: a control's accessible name contains the text it
 * shows (WCAG 2.5.3 "Label in Name"; once missed by the mobile logo and the user menu).
 */
export const EXTRA_RULES = { 'label-content-name-mismatch': { enabled: true } };
/** Impacts that fail a check; moderate and minor findings are printed but pass. */
export const BLOCKING = new Set(['serious', 'critical']);

/** Every checkA11y of the process: pages checked and findings by impact (for the journey's summary). */
export const axeTally = { pages: 0, serious: 0, critical: 0, moderate: 0, minor: 0 };

/**
 * Waits until the page has settled: finite CSS animations and transitions (the page fade-in, a modal
 * opening) have ended, so that axe measures colours as they are shown, not half-faded. A transition
 * may start a frame or two after what opened it (Mantine's enter a frame after mount), so the page
 * counts as settled only after two frames in a row with none running.
 */
export async function settle(page) {
  await page.evaluate(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
    for (let quietFrames = 0; quietFrames < 2;) {
      await frame();
      const running = document
        .getAnimations()
        .filter(
          (a) =>
            a.playState !== 'finished' &&
            Number.isFinite(a.effect?.getComputedTiming?.().endTime ?? Infinity),
        );
      quietFrames = running.length === 0 ? quietFrames + 1 : 0;
      await Promise.all(running.map((a) => a.finished.catch(() => undefined)));
    }
  });
}

/**
 * Runs axe on the page (or on `include`, a selector) and answers its blocking violations as lines
 * "rule (impact): help — target, target"; prints every finding under `label`. Throws when any is
 * serious or critical, so that a journey step fails with the first of them.
 */
export async function checkA11y(page, label, { include, exclude = [], throwOnViolation = true } = {}) {
  await settle(page);
  let builder = new AxeBuilder({ page }).options({ rules: EXTRA_RULES }).withTags(AXE_TAGS);
  if (include) builder = builder.include(include);
  for (const selector of exclude) builder = builder.exclude(selector);
  const { violations } = await builder.analyze();
  axeTally.pages += 1;
  const lines = [];
  for (const v of violations) {
    const impact = v.impact ?? 'minor';
    axeTally[impact] = (axeTally[impact] ?? 0) + v.nodes.length;
    const targets = v.nodes
      .slice(0, 3)
      .map((n) => n.target.join(' '))
      .join(', ');
    const line = `${v.id} (${impact}, ${v.nodes.length}x): ${v.help} — ${targets}`;
    console.log(`       axe ${label}: ${line}`);
    if (v.id === 'color-contrast')
      for (const n of v.nodes.slice(0, 3)) console.log(`         ${n.any[0]?.message ?? ''}`);
    if (BLOCKING.has(impact)) lines.push(line);
  }
  if (lines.length && throwOnViolation)
    throw new Error(`${lines.length} serious/critical axe violation(s): ${lines[0]}`);
  return lines;
}

/** How many pixels the document is wider than the viewport (0 when it fits). */
export const overflowOf = (page) =>
  page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth));

/** Fails when the document scrolls sideways at the viewport's width. */
export async function checkNoOverflow(page, label) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  const viewport = page.viewportSize()?.width ?? 0;
  if (width > viewport) {
    const culprit = await page.evaluate((max) => {
      const wide = [...document.querySelectorAll('body *')].filter(
        (el) => el.getBoundingClientRect().right > max + 1,
      );
      const el = wide.at(-1);
      return el ? `${el.tagName.toLowerCase()}.${[...el.classList].slice(0, 2).join('.')}` : '';
    }, viewport);
    throw new Error(`${label}: the page is ${width} px wide at ${viewport} px (e.g. ${culprit})`);
  }
}

/** Fails when a button's or badge's label is cut short (Mantine clips them with an ellipsis). */
export async function checkNoClippedLabels(page, label) {
  const clipped = await page.evaluate(() =>
    [...document.querySelectorAll('.mantine-Button-label, .mantine-Badge-label')]
      .filter((el) => el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1)
      .map((el) => el.textContent.trim()),
  );
  if (clipped.length) throw new Error(`${label}: labels cut short: ${clipped.slice(0, 5).join(', ')}`);
}

/**
 * Records, for every page of `context`, console errors (which include failed requests and scripts or
 * styles the CSP blocked) and CSP violations (the `securitypolicyviolation` event, also raised for
 * probes a library catches). `ignore({ text, url })` answers true for an expected one. Answers the
 * list, which a journey empties after reporting it.
 */
export async function watchProblems(context, { ignore = () => false } = {}) {
  const problems = [];
  const add = (page, text, url = '') => {
    if (ignore({ text, url })) return;
    // A failed load names the page, not what failed: add the resource's address.
    const what = url && url !== page.url() ? ` (${new URL(url).pathname})` : '';
    problems.push(`${new URL(page.url()).pathname}: ${text}${what}`);
  };
  await context.exposeBinding('__qmCspViolation', ({ page }, text) => add(page, `CSP violation: ${text}`));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const where = `${e.sourceFile || 'the page'}:${e.lineNumber}`;
      window.__qmCspViolation(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${where})`);
    });
  });
  context.on('page', (page) => {
    page.on('console', (message) => {
      if (message.type() === 'error')
        add(page, `console error: ${message.text()}`, message.location()?.url ?? '');
    });
  });
  return problems;
}
