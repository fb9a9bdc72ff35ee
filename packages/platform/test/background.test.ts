import { createLogger, type PeriodicJob, scheduleJobs } from '../src';

const log = createLogger('test', 'silent');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('scheduleJobs', () => {
  it('runs a job on its interval, never twice at once, retries after a failure, and stops', async () => {
    let runs = 0;
    let concurrent = 0;
    let most = 0;
    const job: PeriodicJob = {
      name: 'slow',
      everyMs: 10,
      async run() {
        runs++;
        concurrent++;
        most = Math.max(most, concurrent);
        await sleep(35);
        concurrent--;
        if (runs === 1) throw new Error('first run fails');
      },
    };
    const stop = scheduleJobs([job], log);
    await sleep(200);
    stop();
    const after = runs;
    expect(after).toBeGreaterThanOrEqual(3);
    expect(most).toBe(1);
    await sleep(60);
    expect(runs).toBe(after);
  });

  it('leaves a job with everyMs 0 off', async () => {
    let runs = 0;
    const stop = scheduleJobs([{ name: 'off', everyMs: 0, run: async () => void runs++ }], log);
    await sleep(50);
    stop();
    expect(runs).toBe(0);
  });
});
