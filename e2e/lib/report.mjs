// How a journey reports to `make test` (scripts/ci-test.mjs): the last line `<journey>: N passed, M failed`
// and, when the runner sets E2E_RESULT_FILE, the same counts as JSON there, so that every check counts.
import { writeFileSync } from 'node:fs';

/** Prints and records the counts, then exits: non-zero on a failure or when nothing was checked. */
export function report(journey, passed, failed) {
  if (passed + failed === 0) {
    console.log(`FAIL - ${journey} ran no checks`);
    failed = 1;
  }
  console.log(`${journey}: ${passed} passed, ${failed} failed`);
  if (process.env.E2E_RESULT_FILE)
    writeFileSync(process.env.E2E_RESULT_FILE, JSON.stringify({ journey, passed, failed }));
  process.exit(failed ? 1 : 0);
}
