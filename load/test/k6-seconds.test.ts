import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { durationsBySecond, percentile, readK6Json, stalls } from '../lib/k6-seconds.cjs';

const START = Date.parse('2026-12-07T03:00:00Z');

/** One line of k6's JSON output for a request's duration. */
const point = (second: number, endpoint: string, ms: number, tags: Record<string, string> = {}) =>
  JSON.stringify({
    metric: 'http_req_duration',
    type: 'Point',
    data: {
      time: new Date(START + second * 1000 + 250).toISOString(),
      value: ms,
      tags: { endpoint, expected_response: 'true', group: '', ...tags },
    },
  });

/**
 * Ten seconds of five transfers and five probes each: transfers take 20 ms and probes 10, but in
 * second 4 transfers take 200 (the stack stalled) and in second 7 both take ten times as long (the
 * machine did).
 */
function run(): string[] {
  const lines = [
    JSON.stringify({ metric: 'http_req_duration', type: 'Metric', data: { name: 'http_req_duration' } }),
    point(-30, 'login', 900, { group: '::setup' }),
    point(3, 'transfer', 5_000, { expected_response: 'false' }),
  ];
  for (let s = 0; s < 10; s++)
    for (let i = 0; i < 5; i++) {
      lines.push(point(s, 'transfer', s === 4 ? 200 : s === 7 ? 200 : 20));
      lines.push(point(s, 'probe', s === 7 ? 100 : 10));
      lines.push(
        JSON.stringify({ metric: 'http_reqs', type: 'Point', data: { time: '', value: 1, tags: {} } }),
      );
    }
  return lines;
}

describe('a k6 run second by second (load/lib/k6-seconds.cjs)', () => {
  it("groups each endpoint's expected answers by second from the first after setup", () => {
    const by = durationsBySecond(run());
    expect([...by.keys()].sort()).toEqual(['probe', 'transfer']);
    expect([...by.get('transfer')!.keys()]).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(by.get('transfer')!.get(3)).toEqual([20, 20, 20, 20, 20]);
  });

  it('finds the seconds an endpoint stalled and the probe did not, and the ratio without them', () => {
    const { seconds, ratio, ratioWithout } = stalls(durationsBySecond(run()), 'transfer');
    expect(seconds).toEqual([{ second: 4, requests: 5, medianMs: 200, probeMedianMs: 10 }]);
    // With seconds 4 and 7, the transfers' p95 is 200 ms against the probe's 100; without second 4, 200 against 100 still.
    expect(ratio).toBeCloseTo(2);
    expect(ratioWithout).toBeCloseTo(2);
  });

  it('sets the ratio without a stall apart from the ratio with it', () => {
    const lines = run().filter((l) => !l.includes('"time":"2026-12-07T03:00:07'));
    const { seconds, ratio, ratioWithout } = stalls(durationsBySecond(lines), 'transfer');
    expect(seconds.map((s) => s.second)).toEqual([4]);
    expect(ratio).toBeCloseTo(20);
    expect(ratioWithout).toBeCloseTo(2);
  });

  it('reads the output gzipped or not', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'k6-seconds-'));
    const text = run().join('\n');
    writeFileSync(path.join(dir, 'points.json'), text);
    writeFileSync(path.join(dir, 'points.json.gz'), gzipSync(text));
    expect(readK6Json(path.join(dir, 'points.json.gz'))).toEqual(readK6Json(path.join(dir, 'points.json')));
    expect(readK6Json(path.join(dir, 'points.json'))).toHaveLength(run().length);
  });

  it('interpolates percentiles as k6 does', () => {
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(percentile([10], 0.95)).toBe(10);
    expect(percentile([], 0.5)).toBeNaN();
  });
});
