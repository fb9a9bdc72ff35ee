// The step runner of the browser journeys: each step is one counted check; once a step fails, the
// steps that depend on it are recorded as failed without running (screenshot of the failure kept).
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { finish } from './browser.mjs';

export function assert(condition, message) {
  if (!condition) throw new Error(message);
}

const firstLine = (error) => (error instanceof Error ? error.message.split('\n')[0] : String(error));

/** `journey` names the screenshots (`<journey>-<name>.png` in `artifacts`) and the report. */
export async function journeySteps(journey, artifacts) {
  await mkdir(artifacts, { recursive: true });
  const results = [];
  let blocked = null;

  async function step(name, fn, { page, independent = false } = {}) {
    if (blocked && !independent) {
      results.push({ name, ok: false });
      console.log(`FAIL - ${name}: skipped (depends on "${blocked}")`);
      return;
    }
    const started = Date.now();
    try {
      const note = await fn();
      results.push({ name, ok: true });
      console.log(`ok   - ${name} (${Date.now() - started} ms)${note ? ` - ${note}` : ''}`);
    } catch (error) {
      results.push({ name, ok: false });
      if (!independent) blocked = name;
      console.log(`FAIL - ${name}: ${firstLine(error)}`);
      if (page) {
        const file = `${journey}-failed-${name.replace(/\W+/g, '-').slice(0, 80)}.png`;
        await page.screenshot({ path: path.join(artifacts, file), fullPage: true }).catch(() => {});
      }
    }
  }

  const shot = (page, name, fullPage = false) =>
    page.screenshot({
      path: path.join(artifacts, `${journey}-${name}.png`),
      fullPage,
      animations: 'disabled',
    });

  return { step, shot, done: () => finish(journey, results) };
}
