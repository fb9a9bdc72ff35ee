import { countersBetween, histogramsBetween, parseSamples, quantile } from '../lib/prometheus.cjs';

const scrape = (wait: number[], refused: number) => `# HELP gateway_admission_wait_seconds …
# TYPE gateway_admission_wait_seconds histogram
gateway_admission_wait_seconds_bucket{le="0",service="wallet",line="changes"} ${wait[0]}
gateway_admission_wait_seconds_bucket{le="0.1",service="wallet",line="changes"} ${wait[1]}
gateway_admission_wait_seconds_bucket{le="1",service="wallet",line="changes"} ${wait[2]}
gateway_admission_wait_seconds_bucket{le="+Inf",service="wallet",line="changes"} ${wait[2]}
gateway_admission_wait_seconds_sum{service="wallet",line="changes"} ${wait[3]}
gateway_admission_wait_seconds_count{service="wallet",line="changes"} ${wait[2]}
gateway_admission_wait_seconds_bucket{le="0",service="wallet",line="reads"} 5
gateway_admission_wait_seconds_bucket{le="0.1",service="wallet",line="reads"} 5
gateway_admission_wait_seconds_bucket{le="1",service="wallet",line="reads"} 5
gateway_admission_wait_seconds_bucket{le="+Inf",service="wallet",line="reads"} 5
gateway_admission_wait_seconds_sum{service="wallet",line="reads"} 0
gateway_admission_wait_seconds_count{service="wallet",line="reads"} 5
gateway_admission_refused_total{service="wallet",line="changes",reason="line-full"} ${refused}
`;

describe('Prometheus scrapes compared (load/lib/prometheus.cjs)', () => {
  const before = scrape([10, 10, 10, 0], 1);
  const after = scrape([20, 60, 110, 12.5], 4);

  it('reads samples with their labels', () => {
    expect(parseSamples(before)[0]).toEqual({
      name: 'gateway_admission_wait_seconds_bucket',
      labels: { le: '0', service: 'wallet', line: 'changes' },
      value: 10,
    });
  });

  it('gives each histogram series what it counted between the scrapes, leaving out those that counted nothing', () => {
    expect(histogramsBetween(before, after, 'gateway_admission_wait_seconds')).toEqual([
      {
        labels: { service: 'wallet', line: 'changes' },
        count: 100,
        sum: 12.5,
        buckets: [
          [0, 10],
          [0.1, 50],
          [1, 100],
          [Infinity, 100],
        ],
      },
    ]);
    // A series the first scrape did not have counts from zero.
    expect(histogramsBetween('', before, 'gateway_admission_wait_seconds')).toHaveLength(2);
    expect(histogramsBetween(before, after, 'gateway_admission')).toEqual([]);
  });

  it('interpolates a quantile within its bucket, as histogram_quantile does', () => {
    const [wait] = histogramsBetween(before, after, 'gateway_admission_wait_seconds');
    expect(quantile(0.05, wait!)).toBe(0);
    expect(quantile(0.3, wait!)).toBeCloseTo(0.05);
    expect(quantile(0.95, wait!)).toBeCloseTo(0.1 + 0.9 * 0.9);
    expect(
      quantile(0.99, {
        count: 10,
        buckets: [
          [1, 5],
          [Infinity, 10],
        ],
      }),
    ).toBe(1);
  });

  it('gives each counter series its increase', () => {
    expect(countersBetween(before, after, 'gateway_admission_refused_total')).toEqual([
      { labels: { service: 'wallet', line: 'changes', reason: 'line-full' }, value: 3 },
    ]);
  });
});
