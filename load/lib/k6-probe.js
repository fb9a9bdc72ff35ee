/* global __ENV */
// The bare-update probe a k6 run sends beside its workload when load/k6-ratios.mjs runs it
// (PROBE_URL set): the same number of virtual users and think time, each request one
// findOneAndUpdate straight from Express (load/bare-express.mjs). Its p95 is what the workload's
// latency budgets are ratios of, measured in the same run on the same busy machine. k6 only.
import http from 'k6/http';
import { sleep } from 'k6';

const PROBE_URL = __ENV.PROBE_URL;

/** The probe's scenario for `options.scenarios`, and its threshold so k6 reports its latency. */
export function probeOptions(vus, duration) {
  if (!PROBE_URL) return { scenarios: {}, thresholds: {} };
  return {
    scenarios: { probe: { executor: 'constant-vus', vus, duration, exec: 'probe' } },
    thresholds: { 'http_req_duration{endpoint:probe}': ['p(95)<60000'] },
  };
}

/** One bare update, then the workload's think time. */
export function probe(thinkSeconds) {
  http.post(PROBE_URL, null, { tags: { endpoint: 'probe' } });
  sleep(thinkSeconds);
}
