import { ROADMAP, type RoadmapStatus } from '../src/pages/info/roadmap';

const statusOf = (item: string): RoadmapStatus | undefined =>
  ROADMAP.find((week) => week.items.includes(item))?.status;

// Work that is built, with where it lives: it belongs under a completed week, never in progress.
const FINISHED: Record<string, string> = {
  'Attempt limits and signed service identity': 'docs/adr/005-service-identity.md, docs/adr/021',
  'Clear payment states: failed and expired top-ups': 'TOPUP_EXPIRY_MINUTES, the wallet history',
  'A Helm chart with autoscaling': 'charts/quartermaster',
  'Load testing and crash testing of payments': 'load/, docs/adr/015-chaos-run.md',
};

// Not built yet: never shown as completed.
const NOT_BUILT = [
  "Refunds, with sellers' proceeds held until the refund window closes",
  'Receipts by email',
  'The chart installed on a real Kubernetes cluster in every CI run',
  'Newsletter',
];

describe('the roadmap', () => {
  it.each(Object.keys(FINISHED))('lists finished work under Completed: %s', (item) => {
    expect(statusOf(item)).toBe('completed');
  });

  it.each(NOT_BUILT)('does not call unbuilt work completed: %s', (item) => {
    expect(statusOf(item)).toBeDefined();
    expect(statusOf(item)).not.toBe('completed');
  });

  it('is in order: completed weeks, then at most one in progress, then upcoming ones', () => {
    const rank: Record<RoadmapStatus, number> = { completed: 0, 'in-progress': 1, upcoming: 2 };
    const ranks = ROADMAP.map((week) => rank[week.status]);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(ROADMAP.filter((week) => week.status === 'in-progress').length).toBeLessThanOrEqual(1);
  });

  it('names each item once', () => {
    const items = ROADMAP.flatMap((week) => week.items);
    expect(new Set(items).size).toBe(items.length);
  });
});
