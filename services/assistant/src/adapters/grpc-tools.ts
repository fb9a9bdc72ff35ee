import {
  activityV1,
  catalogV1,
  identityV1,
  orderStatuses,
  ordersV1,
  productTypes,
  roles,
  supportV1,
  userStatuses,
  transactionStatuses,
  transactionTypes,
  walletV1,
} from '@qm/contracts/grpc';
import {
  createClients,
  currentContext,
  GrpcStatus,
  isServiceError,
  type ServiceIdentity,
} from '@qm/platform';
import type { ChatTools, LatestRefund, OrderFact, ProductFact, RefundFact } from '../domain/facts';

export interface ToolAddresses {
  identity: string;
  catalog: string;
  wallet: string;
  orders: string;
  support: string;
  activity: string;
  deadlineMs: number;
  /** INTERNAL_TOKEN: proves it is the assistant relaying its caller's assertion (docs/adr/021). */
  token: string | undefined;
}

const isCode = (err: unknown, code: GrpcStatus) => isServiceError(err) && err.code === code;

/** Orders, wallet and others may be larger than a chat answer needs; one page is plenty. */
const PAGE_MAX = 32;
const pageOf = (limit: number) => ({ page: 1, pageSize: Math.max(1, Math.min(PAGE_MAX, limit)) });
/**
 * Pages of the caller's newest purchases searched for their latest refund request: a request is made
 * within its order's refund window (hours after the purchase), so the last one is on a recent order.
 */
const REFUND_PAGES = 2;

const REFUND_STATES: readonly RefundFact['status'][] = ['requested', 'approved', 'rejected'];

function refundFact(r: ordersV1.Refund | undefined): RefundFact | null {
  const status = REFUND_STATES.find((s) => s === r?.status);
  if (!r || !status) return null;
  return {
    status,
    reason: r.reason,
    requestedAt: r.requestedAt,
    decisionReason: r.decisionReason,
    decidedAt: r.decidedAt,
  };
}

function orderFact(o: ordersV1.Order, side: OrderFact['side']): OrderFact {
  const other = side === 'purchase' ? o.seller : o.buyer;
  return {
    side,
    id: o.id,
    productId: o.productId,
    productName: o.product?.name ?? '',
    productType: o.product?.type ?? '',
    quantity: o.quantity,
    totalPaise: o.totalPaise,
    status: orderStatuses.fromProto(o.status) ?? 'pending',
    cancelReason: o.cancelReason,
    counterparty: other?.name || other?.username || '',
    createdAt: o.createdAt,
    refundableUntil: o.refundableUntil,
    refund: refundFact(o.refund),
  };
}

/** The purchase with the newest refund request among the first REFUND_PAGES pages of `list`. */
async function findLatestRefund(
  list: (page: number) => Promise<{ orders: ordersV1.Order[]; total: number }>,
): Promise<LatestRefund> {
  let latest: OrderFact | null = null;
  let looked = 0;
  let total = 0;
  for (let page = 1; page <= REFUND_PAGES; page++) {
    const out = await list(page);
    total = out.total;
    looked += out.orders.length;
    for (const o of out.orders.map((x) => orderFact(x, 'purchase')))
      if (o.refund && (!latest || o.refund.requestedAt > latest.refund!.requestedAt)) latest = o;
    if (looked >= total || out.orders.length < PAGE_MAX) break;
  }
  return { order: latest, looked, total };
}

function productFact(p: catalogV1.Product): ProductFact {
  return {
    id: p.id,
    name: p.name,
    type: productTypes.fromProto(p.type) ?? 'Other',
    pricePaise: p.pricePaise,
    stock: p.stock,
    description: p.description,
  };
}

/**
 * The chat's tools over gRPC. Each call relays the caller assertion of the current request
 * unchanged (@qm/platform's client), so the assistant can reach nothing its caller could not; the
 * assistant's service identity only lets the callee accept an assertion issued to the assistant
 * (docs/adr/021), and no handler grants the assistant anything of its own (docs/adr/014).
 */
export function grpcChatTools(a: ToolAddresses): { tools: ChatTools; close(): void } {
  const opts = {
    defaultDeadlineMs: a.deadlineMs,
    identity: a.token ? ({ service: 'assistant', token: a.token } satisfies ServiceIdentity) : undefined,
  };
  const { clients, close } = createClients(
    {
      identity: identityV1.IdentityServiceService,
      catalog: catalogV1.CatalogServiceService,
      wallet: walletV1.WalletServiceService,
      orders: ordersV1.OrdersServiceService,
      support: supportV1.SupportServiceService,
      activity: activityV1.ActivityServiceService,
    },
    a,
    opts,
  );
  const { identity, catalog, wallet, orders, support, activity } = clients;

  const tools: ChatTools = {
    async me() {
      const { user } = await identity.getCurrentUser({});
      if (!user) throw new Error('identity answered no user');
      return {
        userId: user.id,
        username: user.username,
        firstName: user.firstName,
        name: `${user.firstName} ${user.lastName}`.trim(),
        role: roles.fromProto(user.role) ?? '',
        division: user.division ?? '',
        isAdmin: user.isAdmin,
      };
    },
    async purchases(limit) {
      const out = await orders.listPurchasedOrders({ ...pageOf(limit), recordView: false });
      return { items: out.orders.map((o) => orderFact(o, 'purchase')), total: out.total };
    },
    async sales(limit) {
      const out = await orders.listSoldOrders({ ...pageOf(limit), recordView: false });
      return { items: out.orders.map((o) => orderFact(o, 'sale')), total: out.total };
    },
    async order(id) {
      try {
        const { order } = await orders.getOrder({ orderId: id });
        if (!order) return null;
        return orderFact(order, order.sellerId === currentContext()?.caller?.userId ? 'sale' : 'purchase');
      } catch (err) {
        if (isCode(err, GrpcStatus.NOT_FOUND) || isCode(err, GrpcStatus.INVALID_ARGUMENT)) return null;
        throw err;
      }
    },
    latestRefund: () =>
      findLatestRefund((page) => orders.listPurchasedOrders({ page, pageSize: PAGE_MAX, recordView: false })),
    async wallet() {
      const { wallet: w } = await wallet.getWallet({ recordView: false });
      return {
        balancePaise: w?.balancePaise ?? 0,
        heldPaise: w?.heldPaise ?? 0,
        availablePaise: w?.availablePaise ?? 0,
      };
    },
    async transactions(limit) {
      const out = await wallet.listTransactions({ ...pageOf(limit), status: 0 });
      return {
        items: out.transactions.map((t) => ({
          id: t.id,
          type: transactionTypes.fromProto(t.type) ?? 'transfer',
          status: transactionStatuses.fromProto(t.status) ?? 'pending',
          failureReason: t.failureReason,
          amountPaise: t.amountPaise,
          description: t.description,
          counterparty: t.counterparty,
          transferReference: t.transferReference,
          createdAt: t.createdAt,
        })),
        total: out.total,
      };
    },
    async products({ query, type, limit }) {
      const out = await catalog.listProducts({
        type: (type && productTypes.toProto(type as never)) || 0,
        query: query ?? '',
        manufacturerId: 0,
        ...pageOf(limit),
        ids: [],
        beforeId: 0,
        ifNoneMatch: '',
      });
      return { items: out.products.map(productFact), total: out.total };
    },
    async product(id) {
      try {
        const { product } = await catalog.getProduct({ id, recordView: false });
        return product ? productFact(product) : null;
      } catch (err) {
        if (isCode(err, GrpcStatus.NOT_FOUND) || isCode(err, GrpcStatus.INVALID_ARGUMENT)) return null;
        throw err;
      }
    },
    async activity(limit) {
      const out = await activity.listMyActivities(pageOf(limit));
      return out.activities.map((x) => ({ action: x.action, details: x.details, createdAt: x.createdAt }));
    },
    async platform() {
      const [users, orderStats, money, queries] = await Promise.all([
        identity.getUserStats({}),
        orders.getOrderStats({ days: 1 }),
        wallet.getMoneyStats({ days: 1 }),
        support.listQueries({ page: 1, pageSize: 1, status: 0 }),
      ]);
      const today = orderStats.days.at(-1);
      const topUps = money.days.at(-1);
      return {
        totalUsers: users.pendingCount + users.approvedCount + users.rejectedCount,
        approvedUsers: users.approvedCount,
        pendingApprovals: users.pendingCount,
        ordersToday: today?.count ?? 0,
        ordersTodayPaise: today?.amountPaise ?? 0,
        pendingOrders: orderStats.pendingCount,
        topUpsToday: topUps?.count ?? 0,
        topUpsTodayPaise: topUps?.amountPaise ?? 0,
        openQueries: queries.pendingCount + queries.inProgressCount,
      };
    },
    async pendingUsers(limit) {
      // Every pending user (page 0: no paging), so the count and the oldest are exact.
      const { users } = await identity.listUsers({
        status: userStatuses.toProto('pending'),
        search: '',
        role: identityV1.Role.ROLE_UNSPECIFIED,
        page: 0,
        pageSize: 0,
      });
      const oldestFirst = [...users].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id);
      return {
        total: users.length,
        items: oldestFirst.slice(0, limit).map((u) => ({
          username: u.username,
          name: `${u.firstName} ${u.lastName}`.trim(),
          role: roles.fromProto(u.role) ?? '',
          createdAt: u.createdAt,
        })),
      };
    },
  };
  return {
    tools,
    close,
  };
}
