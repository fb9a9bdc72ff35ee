import {
  CATALOG_SUBJECTS,
  type OrderEndedData,
  ORDERS_SUBJECTS,
  type ProductCreatedData,
  type ProductUpdatedData,
  type QueryRepliedData,
  type RefundEventData,
  SUPPORT_SUBJECTS,
  type TransferReceivedData,
  WALLET_SUBJECTS,
} from '@qm/contracts/events';

/**
 * What the browser is told live (GET /api/live), and who may hear it. The rules of who hears what
 * are here and nowhere else: `toLiveEvent` keeps only what a browser needs of a bus event, and
 * `audienceOf` names the users it concerns.
 */
export type LiveEvent =
  /** Public market data: a product's stock (when the event says it) changed, or the product did. */
  | { type: 'product'; data: { productId: number; stock?: number; deleted?: true } }
  /** An order ended; told to its buyer and its seller. */
  | {
      type: 'order';
      data: { id: number; status: 'completed' | 'cancelled'; buyerId: number; sellerId: number };
    }
  /** A refund was requested, approved or rejected; told to the order's buyer and seller. */
  | {
      type: 'refund';
      data: {
        id: number;
        status: 'requested' | 'approved' | 'rejected';
        totalPaise: number;
        buyerId: number;
        sellerId: number;
      };
    }
  /** Money arrived from another user's transfer; told to its receiver. */
  | {
      type: 'transfer';
      data: { receiverId: number; senderUsername: string; amountPaise: number; reference: string };
    }
  /** An administrator replied to a query its sender sent signed in; told to that sender. */
  | {
      type: 'query';
      data: { id: number; status: 'in-progress' | 'resolved'; subject: string; userId: number };
    };

export type LiveEventType = LiveEvent['type'];

/** Everyone signed in, or exactly these users. */
export type Audience = 'everyone' | readonly number[];

/** The bus subjects the live stream follows (without the environment prefix). */
export const LIVE_SUBJECTS: readonly string[] = [
  CATALOG_SUBJECTS.created,
  CATALOG_SUBJECTS.updated,
  CATALOG_SUBJECTS.deleted,
  ORDERS_SUBJECTS.completed,
  ORDERS_SUBJECTS.cancelled,
  ORDERS_SUBJECTS.refundRequested,
  ORDERS_SUBJECTS.refundApproved,
  ORDERS_SUBJECTS.refundRejected,
  WALLET_SUBJECTS.transferReceived,
  SUPPORT_SUBJECTS.replied,
];

const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;

/** The live form of a bus event, or undefined for one the browser is not told (or a malformed one). */
export function toLiveEvent(subject: string, data: unknown): LiveEvent | undefined {
  if (!data || typeof data !== 'object') return undefined;
  switch (subject) {
    case CATALOG_SUBJECTS.created: {
      const d = data as Partial<ProductCreatedData>;
      if (!isId(d.id)) return undefined;
      return { type: 'product', data: { productId: d.id, ...stockOf(d.stock) } };
    }
    case CATALOG_SUBJECTS.updated: {
      // A stock movement carries a delta only: the browser refetches to learn the stock.
      const d = data as Partial<ProductUpdatedData>;
      if (!isId(d.id)) return undefined;
      return { type: 'product', data: { productId: d.id, ...stockOf(d.changes?.stock) } };
    }
    case CATALOG_SUBJECTS.deleted: {
      const d = data as { id?: unknown };
      if (!isId(d.id)) return undefined;
      return { type: 'product', data: { productId: d.id, deleted: true } };
    }
    case ORDERS_SUBJECTS.completed:
    case ORDERS_SUBJECTS.cancelled: {
      const d = data as Partial<OrderEndedData>;
      if (!isId(d.id) || !isId(d.buyerId) || !isId(d.sellerId)) return undefined;
      if (d.status !== 'completed' && d.status !== 'cancelled') return undefined;
      return {
        type: 'order',
        data: { id: d.id, status: d.status, buyerId: d.buyerId, sellerId: d.sellerId },
      };
    }
    case ORDERS_SUBJECTS.refundRequested:
    case ORDERS_SUBJECTS.refundApproved:
    case ORDERS_SUBJECTS.refundRejected: {
      // The reasons stay out: the order's page shows them to whoever may read them.
      const d = data as Partial<RefundEventData>;
      if (!isId(d.id) || !isId(d.buyerId) || !isId(d.sellerId)) return undefined;
      if (d.status !== 'requested' && d.status !== 'approved' && d.status !== 'rejected') return undefined;
      return {
        type: 'refund',
        data: {
          id: d.id,
          status: d.status,
          totalPaise: typeof d.totalPaise === 'number' ? d.totalPaise : 0,
          buyerId: d.buyerId,
          sellerId: d.sellerId,
        },
      };
    }
    case WALLET_SUBJECTS.transferReceived: {
      const d = data as Partial<TransferReceivedData>;
      if (!isId(d.receiverId) || typeof d.amountPaise !== 'number') return undefined;
      return {
        type: 'transfer',
        data: {
          receiverId: d.receiverId,
          senderUsername: String(d.senderUsername ?? ''),
          amountPaise: d.amountPaise,
          reference: String(d.reference ?? ''),
        },
      };
    }
    case SUPPORT_SUBJECTS.replied: {
      // A query sent signed out has no one to tell: its reply goes by mail only.
      const d = data as Partial<QueryRepliedData>;
      if (!isId(d.queryId) || !isId(d.userId)) return undefined;
      if (d.status !== 'in-progress' && d.status !== 'resolved') return undefined;
      return {
        type: 'query',
        data: { id: d.queryId, status: d.status, subject: String(d.subject ?? ''), userId: d.userId },
      };
    }
    default:
      return undefined;
  }
}

function stockOf(stock: unknown): { stock?: number } {
  return typeof stock === 'number' && Number.isFinite(stock) ? { stock } : {};
}

/**
 * Who hears an event: market data is public; an order and its refund their two parties; a transfer its receiver; a
 * query's reply its sender.
 */
export function audienceOf(event: LiveEvent): Audience {
  switch (event.type) {
    case 'product':
      return 'everyone';
    case 'order':
    case 'refund':
      return [event.data.buyerId, event.data.sellerId];
    case 'transfer':
      return [event.data.receiverId];
    case 'query':
      return [event.data.userId];
  }
}

export function concerns(event: LiveEvent, userId: number): boolean {
  const audience = audienceOf(event);
  return audience === 'everyone' || audience.includes(userId);
}
