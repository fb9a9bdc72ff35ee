/* global __ENV */
// The bare-update probe a k6 run sends beside its workload when load/k6-ratios.mjs runs it
// (PROBE_URL set): the same number of virtual users and think time, each request one
// findOneAndUpdate straight from Express (load/bare-express.mjs). Its p95 is what the workload's
// latency budgets are ratios of, measured in the same run on the same busy machine.
//
// With PROBE_SEQUENCE_URL set, a tenth as many users also send the sequence probe: SEQUENCE_STEPS
// (10, a transfer's database round trips one after another) of the same update in one request. Its
// ratio to the probe is the floor of any design that needs that many round trips in a row. k6 only.
import http from 'k6/http';
import { sleep } from 'k6';

const PROBE_URL = __ENV.PROBE_URL;
const PROBE_SEQUENCE_URL = __ENV.PROBE_SEQUENCE_URL;
const SEQUENCE_STEPS = Number(__ENV.SEQUENCE_STEPS || 10);

/** The probe's scenario for `options.scenarios`, and its threshold so k6 reports its latency. */
export function probeOptions(vus, duration) {
  if (!PROBE_URL) return { scenarios: {}, thresholds: {} };
  const options = {
    scenarios: { probe: { executor: 'constant-vus', vus, duration, exec: 'probe' } },
    thresholds: { 'http_req_duration{endpoint:probe}': ['p(95)<60000'] },
  };
  if (PROBE_SEQUENCE_URL) {
    const sequenceVus = Math.max(1, Math.round(vus / 10));
    options.scenarios.sequence = {
      executor: 'constant-vus',
      vus: sequenceVus,
      duration,
      exec: 'probeSequence',
    };
    options.thresholds['http_req_duration{endpoint:probe-sequence}'] = ['p(95)<60000'];
  }
  return options;
}

/** One bare update, then the workload's think time. */
export function probe(thinkSeconds) {
  http.post(PROBE_URL, null, { tags: { endpoint: 'probe' } });
  sleep(thinkSeconds);
}

/** SEQUENCE_STEPS bare updates in a row in one request, then the workload's think time. */
export function probeSequence(thinkSeconds) {
  http.post(`${PROBE_SEQUENCE_URL}?n=${SEQUENCE_STEPS}`, null, { tags: { endpoint: 'probe-sequence' } });
  sleep(thinkSeconds);
}
