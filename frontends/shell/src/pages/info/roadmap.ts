/**
 * The roadmap's content, apart from its page so a test can hold it to the truth
 * (test/roadmap.test.ts): finished work sits in a completed week, and a week in progress or
 * upcoming lists only what is not built yet.
 */
export type RoadmapStatus = 'completed' | 'in-progress' | 'upcoming';

export interface RoadmapWeek {
  week: string;
  title: string;
  status: RoadmapStatus;
  items: string[];
}

export const ROADMAP: RoadmapWeek[] = [
  {
    week: 'Week 1',
    title: 'Foundations',
    status: 'completed',
    items: [
      'Accounts with administrator approval',
      'Sign-in, sessions and password reset',
      'Landing and policy pages',
    ],
  },
  {
    week: 'Week 2',
    title: 'Marketplace',
    status: 'completed',
    items: [
      'Product listings for manufacturers',
      'Market with stock indicators',
      'Orders for buyers and sellers',
    ],
  },
  {
    week: 'Week 3',
    title: 'Wallet',
    status: 'completed',
    items: ['Card top-ups', 'PIN-protected transfers with one-time codes', 'Transaction history'],
  },
  {
    week: 'Week 4',
    title: 'Oversight',
    status: 'completed',
    items: ['Admin dashboard and management pages', 'Support query inbox', 'User activity log'],
  },
  {
    week: 'Week 5',
    title: 'Assistant',
    status: 'completed',
    items: ['AI chat assistant over your own data', 'AI product description generator'],
  },
  {
    week: 'Week 6',
    title: 'Scale & polish',
    status: 'completed',
    items: [
      'Load testing and crash testing of payments',
      'Accessibility checks on every page',
      'A Helm chart with autoscaling',
    ],
  },
  {
    week: 'Week 7',
    title: 'Trust',
    status: 'completed',
    items: ['Attempt limits and signed service identity', 'Clear payment states: failed and expired top-ups'],
  },
  {
    week: 'Week 8',
    title: 'Cost',
    status: 'in-progress',
    items: ['The cost of each payment and purchase, measured and brought down'],
  },
  {
    week: 'Week 9',
    title: 'Refunds & production',
    status: 'upcoming',
    items: [
      "Refunds, with sellers' proceeds held until the refund window closes",
      'Receipts by email',
      'The chart installed on a real Kubernetes cluster in every CI run',
      'Newsletter',
    ],
  },
];
