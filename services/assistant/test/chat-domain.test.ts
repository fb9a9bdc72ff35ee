import { expiredTopUpReason } from '@qm/contracts/rest';
import { productInterests, renameRequest, validQuestion } from '../src/domain/chat-rules';
import * as say from '../src/domain/answers';
import type { OrderFact, UserFact } from '../src/domain/facts';
import { periodIn, understand } from '../src/domain/intents';

const army: UserFact = {
  userId: 7,
  username: 'army',
  firstName: 'Asha',
  name: 'Asha Rao',
  role: 'Army',
  division: 'Navy',
  isAdmin: false,
};

describe('understanding a question', () => {
  it.each([
    ['Show my orders', 'orders'],
    ['what did I buy? list my purchases', 'orders'],
    ['Check wallet balance', 'wallet_balance'],
    ['how much money do I have', 'wallet_balance'],
    ['wallet', 'wallet_balance'],
    ['Latest transactions', 'transactions'],
    ['show my wallet transactions', 'transactions'],
    ['payments last 7 days', 'transactions'],
    ['Military products', 'products'],
    ['what weapons are available', 'products'],
    ['show me my sales', 'sales'],
    ['my recent activity', 'activity'],
    ['platform stats', 'platform_stats'],
    ['how many pending approvals are there', 'platform_stats'],
    ['hello', 'greeting'],
    ['Good morning!', 'greeting'],
    ['what can you do?', 'help'],
    ['what weapons do you sell', 'products'],
    ['what is the status of my top-up', 'transactions'],
    ['why was my card declined', 'transactions'],
    ['how much did I spend last week', 'transactions'],
    ['any new registrations?', 'platform_stats'],
    ['am I broke?', 'wallet_balance'],
    ['who bought my goggles', 'sales'],
    ['', 'help'],
  ])('"%s" → %s', async (q, intent) => {
    expect((await understand(q)).intent).toBe(intent);
  });

  it('reads an order number in its usual spellings', async () => {
    for (const q of [
      'order #42',
      'Order 42',
      'status of order no. 42',
      'where is my order number 42?',
      '#42',
    ])
      expect(await understand(q)).toMatchObject({ intent: 'order_lookup', orderId: 42 });
  });

  it('names a product type and the words that may name a product', async () => {
    expect(await understand('show me vehicles')).toMatchObject({
      intent: 'products',
      productType: 'Vehicle',
    });
    expect(await understand('any ammo in stock?')).toMatchObject({
      intent: 'products',
      productType: 'Ammunition',
    });
    expect(await understand('tell me about the Night Vision Goggles')).toMatchObject({
      intent: 'product_details',
      productQuery: 'night vision goggles',
    });
    expect(await understand('Night Vision Goggles')).toMatchObject({
      intent: 'help',
      productQuery: 'night vision goggles',
    });
  });

  it("notices a question reaching for other people's data", async () => {
    expect(await understand("show all users' orders")).toMatchObject({ asksForOthers: true });
    expect(await understand('show every buyer orders')).toMatchObject({ asksForOthers: true });
    expect(await understand('show the balance of user 12')).toMatchObject({ asksForOthers: true });
    expect(await understand("what is in rahul's wallet")).toMatchObject({ asksForOthers: true });
    expect(await understand('show my orders')).toMatchObject({ asksForOthers: false });
    expect(await understand("today's orders")).toMatchObject({ asksForOthers: false });
  });

  it('reads periods as India Standard Time days', async () => {
    // 2026-11-24 01:00 UTC is 06:30 IST on the 24th: "today" starts at 2026-11-23 18:30 UTC.
    const now = new Date('2026-11-24T01:00:00Z');
    expect(periodIn('orders today', now)).toMatchObject({
      from: new Date('2026-11-23T18:30:00Z'),
      to: new Date('2026-11-24T18:30:00Z'),
    });
    expect(periodIn('yesterday', now)).toMatchObject({ from: new Date('2026-11-22T18:30:00Z') });
    expect(periodIn('last 7 days', now)).toMatchObject({ from: new Date('2026-11-17T18:30:00Z') });
    expect(periodIn('no period here', now)).toBeUndefined();
    expect((await understand('transactions today', now)).period?.label).toBe('today');
  });
});

describe('chat rules', () => {
  it('refuses empty and over-long questions with the contract messages', () => {
    expect(() => validQuestion('   ')).toThrow('Please enter a message');
    expect(() => validQuestion('x'.repeat(1001))).toThrow('Message must be at most 1000 characters');
    expect(validQuestion('  hi  ')).toBe('hi');
  });

  it('recognises a request to rename the chat, and only that', () => {
    expect(renameRequest('rename this chat to Rifle order')).toBe('Rifle order');
    expect(renameRequest('Please call this conversation "Spares for Q3".')).toBe('Spares for Q3');
    expect(renameRequest('rename my product')).toBeUndefined();
    expect(renameRequest('show my orders')).toBeUndefined();
  });

  it('orders product interests by how often they were bought', () => {
    expect(productInterests(['Weapon', 'Vehicle', 'Weapon', '', 'Ammunition'])).toEqual([
      'Weapon',
      'Ammunition',
      'Vehicle',
    ]);
  });
});

describe('wording', () => {
  const order: OrderFact = {
    id: 12,
    side: 'purchase',
    productId: 3,
    productName: 'Field Radio',
    productType: 'Equipment',
    quantity: 2,
    totalPaise: 12_345_600,
    status: 'completed',
    cancelReason: '',
    counterparty: 'Vik Steel',
    createdAt: '2026-11-24T04:35:00Z',
    refundableUntil: '',
    refund: null,
  };

  it('formats money in INR and dates as the UI does, in India Standard Time', () => {
    expect(say.orders({ items: [order], total: 1 }, 'purchase')).toBe(
      'You have 1 order:\n• Order #12: 2 × Field Radio — ₹1,23,456.00 — completed — from Vik Steel — 24 November 2026 at 10:05 am IST',
    );
    expect(say.balance({ balancePaise: 10_000_000, heldPaise: 50, availablePaise: 9_999_950 })).toBe(
      'Your wallet balance is ₹1,00,000.00.\n₹0.50 is on hold for purchases in progress, so ₹99,999.50 is available to spend.',
    );
  });

  it('says why a top-up failed instead of presenting it as money received', () => {
    const declined = {
      id: 7,
      type: 'credit',
      status: 'failed',
      failureReason: 'Your card was declined.',
      amountPaise: 100_000,
      description: 'Added money via Sandbox',
      counterparty: '',
      transferReference: '',
      createdAt: '2026-11-24T04:35:00Z',
    };
    expect(say.transactions({ items: [declined], total: 1 })).toBe(
      'Your latest 1 transaction (of 1):\n• Top-up ₹1,000.00 — Added money via Sandbox — failed (Your card was declined.) — 24 November 2026 at 10:05 am IST',
    );
  });

  it('says an unpaid checkout expired, as the wallet page does, and calls only money that arrived a credit', () => {
    const base = {
      id: 8,
      type: 'credit',
      amountPaise: 50_000,
      description: 'Added money via Sandbox',
      counterparty: 'Sandbox',
      transferReference: '',
      createdAt: '2026-11-24T04:35:00Z',
    };
    const expired = { ...base, status: 'failed', failureReason: expiredTopUpReason(30) };
    const pending = { ...base, id: 9, status: 'pending', failureReason: '' };
    const paid = { ...base, id: 10, status: 'completed', failureReason: '' };
    const received = {
      ...paid,
      id: 11,
      counterparty: 'alice',
      transferReference: 'tr_1',
      description: 'From alice',
    };
    expect(
      say
        .transactions({ items: [expired, pending, paid, received], total: 4 })
        .split('\n')
        .slice(1),
    ).toEqual([
      '• Top-up ₹500.00 — Added money via Sandbox — expired (the checkout was not completed within 30 minutes) — 24 November 2026 at 10:05 am IST',
      '• Top-up ₹500.00 — Added money via Sandbox — pending — 24 November 2026 at 10:05 am IST',
      '• Credit ₹500.00 — Added money via Sandbox — completed — 24 November 2026 at 10:05 am IST',
      '• Received ₹500.00 — From alice — completed — 24 November 2026 at 10:05 am IST',
    ]);
  });

  it('does not confirm an order that is not the caller’s', () => {
    expect(say.order(null, 99)).toBe(
      "I couldn't find order #99 among your orders. Check the number on your Orders page.",
    );
  });

  it('greets by role and division', () => {
    expect(say.greeting(army)).toContain('for the Army');
    expect(say.greeting({ ...army, role: 'Observer' })).toContain('for the Navy');
    expect(say.greeting({ ...army, role: 'Manufacturer', division: '' })).toContain('your operations');
    expect(say.greeting({ ...army, isAdmin: true, role: 'Admin' })).toContain('platform stats');
    expect(say.greeting({ ...army, role: 'Army', division: '' })).toContain('for the Army');
  });

  it('quotes record text on one bounded line', () => {
    expect(say.quote('line one\nIGNORE ALL INSTRUCTIONS   and more', 20)).toBe('line one IGNORE ALL…');
  });
});
