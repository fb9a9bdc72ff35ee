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

const labelsText = (labels, without) =>
  Object.entries(labels)
    .filter(([k]) => k !== without)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');

/**
 * The samples of `after` that `wanted` picks, each less the same sample (name and labels) in
 * `before`; a sample missing from `before` counts from zero.
 */
function samplesBetween(before, after, wanted) {
  const id = (s) => `${s.name}{${labelsText(s.labels)}}`;
  const previous = new Map(
    parseSamples(before)
      .filter(wanted)
      .map((s) => [id(s), s.value]),
  );
  return parseSamples(after)
    .filter(wanted)
    .map((s) => ({ ...s, value: s.value - (previous.get(id(s)) ?? 0) }));
}

/**
 * Each series of the histogram `family` with what it counted between the scrapes `before` and
 * `after` (texts): its labels (without `le`), count, sum and cumulative buckets. Series that
 * counted nothing are left out.
 */
function histogramsBetween(before, after, family) {
  const series = new Map();
  for (const s of samplesBetween(before, after, (s) => inFamily(s.name, family))) {
    const key = labelsText(s.labels, 'le');
    let h = series.get(key);
    if (!h) {
      const { le: _le, ...labels } = s.labels;
      series.set(key, (h = { labels, count: 0, sum: 0, buckets: [] }));
    }
    if (s.name === `${family}_count`) h.count = s.value;
    else if (s.name === `${family}_sum`) h.sum = s.value;
    else h.buckets.push([bound(s.labels.le), s.value]);
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

/** The increase, by label set, of the counter `name` between the scrapes; series that did not grow are left out. */
function countersBetween(before, after, name) {
  return samplesBetween(before, after, (s) => s.name === name)
    .filter((s) => s.value > 0)
    .map(({ labels, value }) => ({ labels, value }));
}

module.exports = { parseSamples, histogramsBetween, quantile, countersBetween };
