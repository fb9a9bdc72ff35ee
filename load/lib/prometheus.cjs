// Histograms and counters read from two scrapes of a Prometheus text exposition, as what happened
// between them: what the k6 runs use to split a request's latency between the gateway's admission
// line and the service it calls (gateway/src/http/metrics.ts).

/** `name{a="x",b="y"} value` lines, comments and blank lines skipped. */
function parseSamples(text) {
  const samples = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!m) continue;
    const labels = Object.fromEntries(
      [...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]),
    );
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return samples;
}

const inFamily = (name, family) => ['_bucket', '_sum', '_count'].some((end) => name === family + end);
const bound = (le) => (le === '+Inf' ? Infinity : Number(le));

const keyOf = (labels) =>
  Object.entries(labels)
    .filter(([k]) => k !== 'le')
    .map(([k, v]) => `${k}=${v}`)
    .join(',');

/**
 * Each series of the histogram `family` with what it counted between the scrapes `before` and
 * `after` (texts): its labels (without `le`), count, sum and cumulative buckets. Series that
 * counted nothing are left out; a series missing from `before` counts from zero.
 */
function histogramsBetween(before, after, family) {
  const previous = new Map(
    parseSamples(before)
      .filter((s) => inFamily(s.name, family))
      .map((s) => [`${s.name}|${keyOf(s.labels)}|${s.labels.le ?? ''}`, s.value]),
  );
  const series = new Map();
  for (const s of parseSamples(after)) {
    if (!inFamily(s.name, family)) continue;
    const key = keyOf(s.labels);
    const delta = s.value - (previous.get(`${s.name}|${key}|${s.labels.le ?? ''}`) ?? 0);
    const h =
      series.get(key) ??
      series
        .set(key, {
          labels: Object.fromEntries(Object.entries(s.labels).filter(([k]) => k !== 'le')),
          count: 0,
          sum: 0,
          buckets: [],
        })
        .get(key);
    if (s.name === `${family}_count`) h.count = delta;
    else if (s.name === `${family}_sum`) h.sum = delta;
    else if (s.name === `${family}_bucket`) h.buckets.push([bound(s.labels.le), delta]);
  }
  return [...series.values()]
    .filter((h) => h.count > 0)
    .map((h) => ({ ...h, buckets: h.buckets.sort((a, b) => a[0] - b[0]) }));
}

/**
 * The q-quantile of a histogram's cumulative buckets, interpolated linearly within its bucket as
 * Prometheus's histogram_quantile does; the highest finite bound when it falls in +Inf.
 */
function quantile(q, { buckets, count }) {
  const rank = q * count;
  let lower = 0;
  let below = 0;
  for (const [le, cumulative] of buckets) {
    if (cumulative >= rank) {
      if (le === Infinity) return lower;
      return cumulative === below ? le : lower + ((le - lower) * (rank - below)) / (cumulative - below);
    }
    lower = le;
    below = cumulative;
  }
  return lower;
}

/** The sum, by label set, of the counter `name` between the scrapes. */
function countersBetween(before, after, name) {
  const previous = new Map(
    parseSamples(before)
      .filter((s) => s.name === name)
      .map((s) => [keyOf(s.labels), s.value]),
  );
  return parseSamples(after)
    .filter((s) => s.name === name)
    .map((s) => ({ labels: s.labels, value: s.value - (previous.get(keyOf(s.labels)) ?? 0) }))
    .filter((c) => c.value > 0);
}

module.exports = { parseSamples, histogramsBetween, quantile, countersBetween };
