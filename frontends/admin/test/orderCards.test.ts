import type { AdminOrdersPage } from '@qm/contracts/rest';
import { orderCards } from '../src/orderCards';

// Every buyer Army and every seller a Manufacturer, as in the seeded marketplace: the three tab
// counts are all equal, which is why the cards must not all show a count.
const page: AdminOrdersPage = {
  orders: [],
  total: 142,
  page: 1,
  pageSize: 20,
  allCount: 142,
  completedCount: 120,
  pendingCount: 2,
  cancelledCount: 20,
  armyCount: 142,
  manufacturerCount: 142,
  armyCompletedAmount: '1234567.50',
  manufacturerCompletedAmount: '1234567.50',
};

describe('orderCards (/admin/orders)', () => {
  it('gives each card its own figure and a caption saying what it counts', () => {
    expect(orderCards(page)).toEqual([
      { label: 'Total Orders', value: '142', detail: '120 completed · 2 pending' },
      {
        label: 'Army Purchases',
        value: '142',
        detail: 'Orders by Army buyers · ₹12,34,567.50 completed',
      },
      {
        label: 'Manufacturer Sales',
        value: '₹12,34,567.50',
        detail: 'Completed sales, all manufacturers',
      },
    ]);
  });

  it('never shows the same figure and caption on two cards', () => {
    const cards = orderCards(page).map((c) => `${c.value}|${c.detail}`);
    expect(new Set(cards).size).toBe(3);
  });

  it('writes counts in the Indian grouping', () => {
    const big = { ...page, allCount: 123456, completedCount: 100000, pendingCount: 1234, armyCount: 99999 };
    const [total, army] = orderCards(big);
    expect(total).toMatchObject({ value: '1,23,456', detail: '1,00,000 completed · 1,234 pending' });
    expect(army.value).toBe('99,999');
  });
});
