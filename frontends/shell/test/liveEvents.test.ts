import { QueryClient } from '@tanstack/react-query';
import { applyLiveEvent, type LiveContext, type Toast } from '../src/live/liveEvents';

/** What the shell does with the gateway's live events: toasts, and which shared queries go stale. */
function setup(userId: number) {
  const queryClient = new QueryClient();
  const toasts: Toast[] = [];
  let productRefreshes = 0;
  const ctx: LiveContext = {
    queryClient,
    userId,
    notify: (t) => toasts.push(t),
    refreshProducts: () => productRefreshes++,
  };
  for (const key of [
    ['/api/transactions', { page: 1 }],
    ['/api/orders/sold', 1],
    ['/api/orders/purchased', 1],
  ])
    queryClient.setQueryData(key, { held: true });
  const stale = (key: unknown[]) => queryClient.getQueryState(key)?.isInvalidated ?? false;
  return { ctx, toasts, stale, products: () => productRefreshes };
}

describe('live events in the shell', () => {
  it('money received: a toast in rupees with the sender, and the history goes stale', async () => {
    const { ctx, toasts, stale } = setup(5);
    const transfer = { receiverId: 5, senderUsername: 'sepoy', amountPaise: 123456, reference: 'p2p:1:k' };
    await applyLiveEvent('transfer', transfer, ctx);
    expect(toasts).toEqual([{ title: 'Money received', message: '₹1,234.56 from sepoy' }]);
    expect(stale(['/api/transactions', { page: 1 }])).toBe(true);
  });

  it('an order: the seller is told of the sale; both sides’ order lists go stale, the buyer without a toast', async () => {
    const order = { id: 42, status: 'completed', buyerId: 3, sellerId: 4 };
    const seller = setup(4);
    await applyLiveEvent('order', order, seller.ctx);
    expect(seller.toasts).toEqual([{ title: 'New sale', message: 'Order #42 completed' }]);
    expect(seller.stale(['/api/orders/sold', 1])).toBe(true);

    const buyer = setup(3);
    await applyLiveEvent('order', order, buyer.ctx);
    expect(buyer.toasts).toEqual([]);
    expect(buyer.stale(['/api/orders/purchased', 1])).toBe(true);
  });

  it('a refund: the seller hears the request, the buyer the decision; both see balances and orders go stale', async () => {
    const refund = (status: string) => ({ id: 42, status, totalPaise: 150000, buyerId: 3, sellerId: 4 });
    const seller = setup(4);
    await applyLiveEvent('refund', refund('requested'), seller.ctx);
    expect(seller.toasts).toEqual([
      { title: 'Refund requested', message: 'Order #42: its proceeds are held until it is decided' },
    ]);
    expect(seller.stale(['/api/transactions', { page: 1 }])).toBe(true);
    await applyLiveEvent('refund', refund('approved'), seller.ctx);
    expect(seller.toasts).toHaveLength(1);

    const buyer = setup(3);
    await applyLiveEvent('refund', refund('requested'), buyer.ctx);
    expect(buyer.toasts).toEqual([]);
    await applyLiveEvent('refund', refund('approved'), buyer.ctx);
    await applyLiveEvent('refund', refund('rejected'), buyer.ctx);
    expect(buyer.toasts).toEqual([
      { title: 'Refund approved', message: '₹1,500.00 for order #42 is back in your wallet' },
      { title: 'Refund rejected', message: 'Order #42: the reason is on the order' },
    ]);
    expect(buyer.stale(['/api/orders/purchased', 1])).toBe(true);

    const other = setup(9);
    await applyLiveEvent('refund', refund('approved'), other.ctx);
    expect(other.toasts).toEqual([]);
    expect(other.stale(['/api/transactions', { page: 1 }])).toBe(false);
  });

  it("a reply to the user's own query: a toast saying it is answered and where the reply is", async () => {
    const reply = { id: 12, status: 'resolved', subject: 'Delivery to Leh', userId: 5 };
    const sender = setup(5);
    await applyLiveEvent('query', reply, sender.ctx);
    expect(sender.toasts).toEqual([
      {
        title: 'Your query was answered',
        message: '"Delivery to Leh" is resolved. The reply is in your email.',
      },
    ]);
    const other = setup(6);
    await applyLiveEvent('query', reply, other.ctx);
    expect(other.toasts).toEqual([]);
  });

  it("ignores another user's events and refreshes products on stock changes", async () => {
    const { ctx, toasts, stale, products } = setup(9);
    await applyLiveEvent('order', { id: 1, status: 'completed', buyerId: 3, sellerId: 4 }, ctx);
    await applyLiveEvent('transfer', { receiverId: 3, senderUsername: 'x', amountPaise: 1 }, ctx);
    expect(toasts).toEqual([]);
    expect(stale(['/api/orders/sold', 1])).toBe(false);
    await applyLiveEvent('product', { productId: 7 }, ctx);
    expect(products()).toBe(1);
  });
});
