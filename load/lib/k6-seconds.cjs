// A k6 run second by second, from its JSON output (`k6 run --out json=<file>.gz`): the seconds in which
// an endpoint stalled while the bare-update probe beside it did not. A p95 sets its budget over the
// whole run, so a few slow seconds can miss it on their own; when the probe stayed fast in them, the
// machine was not the cause but something every request of the endpoint waited behind (on 2026-12-06,
// one statement of the wallet's sweeper every ten seconds: docs/performance/
// 2026-12-06-transfers-stall-every-ten-seconds.md). load/k6-ratios.mjs prints them after every run.
const { gunzipSync } = require('node:zlib');
const { readFileSync } = require('node:fs');

/** The lines of a k6 JSON output file, gzipped when its name ends in .gz. */
function readK6Json(file) {
  const raw = readFileSync(file);
  return (file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8').split('\n');
}

/**
 * Each endpoint's request durations (ms) by second of the load, counted from the first request after
 * setup(); only expected answers, as the budgets count them. `lines`: k6's JSON output, one object a line.
 */
function durationsBySecond(lines) {
  const points = [];
  for (const line of lines) {
    if (!line.includes('"http_req_duration"')) continue;
    const { type, metric, data } = JSON.parse(line);
    if (type !== 'Point' || metric !== 'http_req_duration') continue;
    const { endpoint, group, expected_response: expected } = data.tags ?? {};
    if (!endpoint || group === '::setup' || expected === 'false') continue;
    points.push({ endpoint, at: Math.floor(Date.parse(data.time) / 1000), ms: data.value });
  }
  const first = points.reduce((min, p) => Math.min(min, p.at), Infinity);
  const by = new Map();
  for (const { endpoint, at, ms } of points) {
    if (!by.has(endpoint)) by.set(endpoint, new Map());
    const seconds = by.get(endpoint);
    if (!seconds.has(at - first)) seconds.set(at - first, []);
    seconds.get(at - first).push(ms);
  }
  return by;
}

/** The q-quantile of `values`, linearly interpolated as k6 reports its percentiles. */
function percentile(values, q) {
  const v = [...values].sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  const k = (v.length - 1) * q;
  const lo = Math.floor(k);
  const hi = Math.min(lo + 1, v.length - 1);
  return v[lo] + (v[hi] - v[lo]) * (k - lo);
}

/**
 * The seconds in which `endpoint`'s median exceeded `factor` × its median over the run while the
 * probe's stayed within `factor` × its own, and the endpoint's p95 ÷ the probe's p95 over the run and
 * without those seconds: how much of the ratio they make.
 */
function stalls(by, endpoint, { probe = 'probe', factor = 3 } = {}) {
  const mine = by.get(endpoint) ?? new Map();
  const theirs = by.get(probe) ?? new Map();
  const all = (m, skip = new Set()) => [...m].filter(([s]) => !skip.has(s)).flatMap(([, v]) => v);
  const runMedian = percentile(all(mine), 0.5);
  const probeMedian = percentile(all(theirs), 0.5);
  const seconds = [...mine]
    .map(([second, ms]) => ({
      second,
      requests: ms.length,
      medianMs: percentile(ms, 0.5),
      probeMedianMs: percentile(theirs.get(second) ?? [], 0.5),
    }))
    .filter((s) => s.medianMs > factor * runMedian && !(s.probeMedianMs > factor * probeMedian))
    .sort((a, b) => a.second - b.second);
  const ratio = (skip) => percentile(all(mine, skip), 0.95) / percentile(all(theirs, skip), 0.95);
  return { seconds, ratio: ratio(new Set()), ratioWithout: ratio(new Set(seconds.map((s) => s.second))) };
}

module.exports = { readK6Json, durationsBySecond, percentile, stalls };
