import { catalogV1, productTypes, type UserDirectory, walletV1 } from '@qm/contracts/grpc';
import { createClients, GrpcStatus, isServiceError, type ServiceIdentity } from '@qm/platform';
import type { ProductFacts, UserFacts } from '../domain/order';

/**
 * The services a purchase calls, with the orders service's own identity (docs/adr/005): identity
 * (who buys and sells, through the shared directory and its cache), catalog (the product and its
 * stock reservation) and wallet (the sale's payment).
 * Refusals arrive as gRPC errors; the saga decides which end a purchase and which are retried.
 */
export interface Partners {
  /** The user, or null when there is none. */
  user(id: number): Promise<UserFacts | null>;
  /** The product, or null when it does not exist (any more). */
  product(id: number): Promise<ProductFacts | null>;
  reserve(reference: string, productId: number, quantity: number, ttlSeconds: number): Promise<void>;
  release(reference: string): Promise<void>;
  commit(reference: string): Promise<void>;
  /** Pays the buyer's money into the sale's escrow, once (docs/adr/043); a hold placed earlier is posted. */
  pay(sale: Sale): Promise<void>;
  /** Makes sure the sale's payment never happens; refused with "already posted" once it was paid. */
  cancelPayment(sale: Sale): Promise<void>;
  /** Posts the hold an earlier build placed for the sale (orders it left at `pay`). */
  post(reference: string): Promise<void>;
  /** Stops the release of the sale's proceeds for a refund request: false when already released. */
  holdProceeds(reference: string): Promise<boolean>;
  unholdProceeds(reference: string): Promise<void>;
  /** Pays the buyer back (keyed by attempt); a refusal for the seller's balance is FAILED_PRECONDITION. */
  refundSale(reference: string, attempt: number): Promise<'escrow' | 'seller'>;
  /** Puts the sold units back in stock, once; a deleted product takes nothing back. */
  returnStock(reference: string): Promise<void>;
  close(): void;
}

/** A sale's payment, as the wallet keys it: by the order's reference. */
export interface Sale {
  reference: string;
  buyerId: number;
  sellerId: number;
  amountPaise: number;
  description: string;
  /** The proceeds wait in escrow until then (the end of the refund window); none: paid at once. */
  releaseAt?: Date;
}

export interface PartnerAddresses {
  /** Identity's users, cached (@qm/contracts/grpc identityDirectory). */
  users: Pick<UserDirectory, 'byId'>;
  catalog: string;
  wallet: string;
  token: string | undefined;
  deadlineMs: number;
}

const saleToProto = (s: Sale): walletV1.Sale => ({
  reference: s.reference,
  debitUserId: s.buyerId,
  creditUserId: s.sellerId,
  amountPaise: s.amountPaise,
  description: s.description,
  releaseAt: s.releaseAt?.toISOString() ?? '',
});

const isNotFound = (err: unknown) => isServiceError(err) && err.code === GrpcStatus.NOT_FOUND;

export function grpcPartners(a: PartnerAddresses): Partners {
  const opts = {
    defaultDeadlineMs: a.deadlineMs,
    identity: a.token ? ({ service: 'orders', token: a.token } satisfies ServiceIdentity) : undefined,
  };
  const { clients, close } = createClients(
    {
      catalog: catalogV1.CatalogServiceService,
      wallet: walletV1.WalletServiceService,
    },
    a,
    opts,
  );
  const { catalog, wallet } = clients;

  return {
    user: (id) => a.users.byId(id),
    async product(id) {
      try {
        const { product: p } = await catalog.getProduct({ id, recordView: false });
        if (!p) return null;
        return {
          id: p.id,
          name: p.name,
          type: productTypes.fromProto(p.type) ?? 'Other',
          description: p.description,
          pricePaise: p.pricePaise,
          stock: p.stock,
          manufacturerId: p.manufacturerId,
        };
      } catch (err) {
        if (isNotFound(err)) return null;
        throw err;
      }
    },
    async reserve(reference, productId, quantity, ttlSeconds) {
      await catalog.reserveStock({ reference, productId, quantity, ttlSeconds });
    },
    async release(reference) {
      await catalog.releaseStock({ reference });
    },
    async commit(reference) {
      await catalog.commitStock({ reference });
    },
    async pay(sale) {
      await wallet.paySale({ sale: saleToProto(sale) });
    },
    async cancelPayment(sale) {
      await wallet.cancelSalePayment({ sale: saleToProto(sale) });
    },
    async post(reference) {
      await wallet.postPendingTransfer({ reference });
    },
    async holdProceeds(reference) {
      return (await wallet.holdSaleProceeds({ reference })).held;
    },
    async unholdProceeds(reference) {
      await wallet.unholdSaleProceeds({ reference });
    },
    async refundSale(reference, attempt) {
      const { source } = await wallet.refundSale({ reference, attempt });
      return source === 'seller' ? 'seller' : 'escrow';
    },
    async returnStock(reference) {
      await catalog.returnStock({ reference });
    },
    close,
  };
}
