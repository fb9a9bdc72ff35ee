import type { ProductTypeName } from '../api/product-types';
import type { UserRole, UserStatusName } from '../api/identity';
import { ProductType } from '../gen/qm/catalog/v1/catalog';
import { Role, UserStatus } from '../gen/qm/identity/v1/identity';
import { TransactionSort, TransactionStatus, TransactionType } from '../gen/qm/wallet/v1/wallet';
import type { TransactionSortName, TransactionStatusName, TransactionTypeName } from '../api/wallet-rules';
import type { OrderScopeName, OrderStatusName, PaymentStatusName } from '../api/orders';
import { OrderScope, OrderStatus, PaymentStatus } from '../gen/qm/orders/v1/orders';
import type { QueryStatusName } from '../api/support';
import { QueryStatus } from '../gen/qm/support/v1/support';
import type { ActivityCategoryName } from '../api/activity';
import { ActivityCategory } from '../gen/qm/activity/v1/activity';

/**
 * A proto enum ⇄ REST name mapping, written once from the name side so the compiler proves every
 * name has its value. `fromProto` is undefined for UNSPECIFIED and values this build does not know.
 */
function enumMapping<N extends string, P extends number>(toProto: Record<N, P>) {
  const byProto = new Map<number, N>(Object.entries(toProto).map(([n, p]) => [p as P, n as N]));
  return {
    toProto: (name: N): P => toProto[name],
    fromProto: (value: P): N | undefined => byProto.get(value),
  };
}

export const roles = enumMapping<UserRole, Role>({
  Army: Role.ROLE_ARMY,
  Navy: Role.ROLE_NAVY,
  Airforce: Role.ROLE_AIRFORCE,
  Manufacturer: Role.ROLE_MANUFACTURER,
  Admin: Role.ROLE_ADMIN,
});

export const userStatuses = enumMapping<UserStatusName, UserStatus>({
  pending: UserStatus.USER_STATUS_PENDING,
  approved: UserStatus.USER_STATUS_APPROVED,
  rejected: UserStatus.USER_STATUS_REJECTED,
});

export const productTypes = enumMapping<ProductTypeName, ProductType>({
  Weapon: ProductType.PRODUCT_TYPE_WEAPON,
  Vehicle: ProductType.PRODUCT_TYPE_VEHICLE,
  Equipment: ProductType.PRODUCT_TYPE_EQUIPMENT,
  Ammunition: ProductType.PRODUCT_TYPE_AMMUNITION,
  Other: ProductType.PRODUCT_TYPE_OTHER,
});

export const transactionTypes = enumMapping<TransactionTypeName, TransactionType>({
  credit: TransactionType.TRANSACTION_TYPE_CREDIT,
  debit: TransactionType.TRANSACTION_TYPE_DEBIT,
  transfer: TransactionType.TRANSACTION_TYPE_TRANSFER,
});

export const transactionStatuses = enumMapping<TransactionStatusName, TransactionStatus>({
  pending: TransactionStatus.TRANSACTION_STATUS_PENDING,
  completed: TransactionStatus.TRANSACTION_STATUS_COMPLETED,
  failed: TransactionStatus.TRANSACTION_STATUS_FAILED,
});

export const transactionSorts = enumMapping<TransactionSortName, TransactionSort>({
  date_desc: TransactionSort.TRANSACTION_SORT_DATE_DESC,
  date_asc: TransactionSort.TRANSACTION_SORT_DATE_ASC,
  amount_desc: TransactionSort.TRANSACTION_SORT_AMOUNT_DESC,
  amount_asc: TransactionSort.TRANSACTION_SORT_AMOUNT_ASC,
});

export const orderStatuses = enumMapping<OrderStatusName, OrderStatus>({
  pending: OrderStatus.ORDER_STATUS_PENDING,
  completed: OrderStatus.ORDER_STATUS_COMPLETED,
  cancelled: OrderStatus.ORDER_STATUS_CANCELLED,
  refunded: OrderStatus.ORDER_STATUS_REFUNDED,
});

export const paymentStatuses = enumMapping<PaymentStatusName, PaymentStatus>({
  pending: PaymentStatus.PAYMENT_STATUS_PENDING,
  paid: PaymentStatus.PAYMENT_STATUS_PAID,
  failed: PaymentStatus.PAYMENT_STATUS_FAILED,
  refunded: PaymentStatus.PAYMENT_STATUS_REFUNDED,
});

export const orderScopes = enumMapping<OrderScopeName, OrderScope>({
  all: OrderScope.ORDER_SCOPE_UNSPECIFIED,
  army: OrderScope.ORDER_SCOPE_ARMY,
  manufacturer: OrderScope.ORDER_SCOPE_MANUFACTURER,
});

export const queryStatuses = enumMapping<QueryStatusName, QueryStatus>({
  pending: QueryStatus.QUERY_STATUS_PENDING,
  'in-progress': QueryStatus.QUERY_STATUS_IN_PROGRESS,
  resolved: QueryStatus.QUERY_STATUS_RESOLVED,
});

export const activityCategories = enumMapping<ActivityCategoryName, ActivityCategory>({
  login: ActivityCategory.ACTIVITY_CATEGORY_LOGIN,
  profile: ActivityCategory.ACTIVITY_CATEGORY_PROFILE,
  wallet: ActivityCategory.ACTIVITY_CATEGORY_WALLET,
  orders: ActivityCategory.ACTIVITY_CATEGORY_ORDERS,
  password: ActivityCategory.ACTIVITY_CATEGORY_PASSWORD,
});
