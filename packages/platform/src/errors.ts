import { status as GrpcStatus, Metadata, type ServiceError } from '@grpc/grpc-js';

/** An error whose message is meant for the user, with the gRPC status that classifies it. */
export class AppError extends Error {
  constructor(
    readonly code: GrpcStatus,
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const invalid = (message: string) => new AppError(GrpcStatus.INVALID_ARGUMENT, message);
export const unauthenticated = (message = 'Not authenticated') =>
  new AppError(GrpcStatus.UNAUTHENTICATED, message);
export const forbidden = (message = 'You do not have permission to do this') =>
  new AppError(GrpcStatus.PERMISSION_DENIED, message);
export const notFound = (message: string) => new AppError(GrpcStatus.NOT_FOUND, message);
export const conflict = (message: string) => new AppError(GrpcStatus.FAILED_PRECONDITION, message);
export const alreadyExists = (message: string) => new AppError(GrpcStatus.ALREADY_EXISTS, message);
export const tooMany = (message: string) => new AppError(GrpcStatus.RESOURCE_EXHAUSTED, message);
export const unavailable = (message: string) => new AppError(GrpcStatus.UNAVAILABLE, message);

const HTTP_BY_GRPC: Partial<Record<GrpcStatus, number>> = {
  [GrpcStatus.INVALID_ARGUMENT]: 400,
  [GrpcStatus.OUT_OF_RANGE]: 400,
  [GrpcStatus.UNAUTHENTICATED]: 401,
  [GrpcStatus.PERMISSION_DENIED]: 403,
  [GrpcStatus.NOT_FOUND]: 404,
  [GrpcStatus.ALREADY_EXISTS]: 409,
  [GrpcStatus.FAILED_PRECONDITION]: 409,
  [GrpcStatus.ABORTED]: 409,
  [GrpcStatus.RESOURCE_EXHAUSTED]: 429,
  [GrpcStatus.UNAVAILABLE]: 503,
  [GrpcStatus.DEADLINE_EXCEEDED]: 504,
  [GrpcStatus.UNIMPLEMENTED]: 501,
};

/** docs/architecture.md §2: gRPC status → HTTP status. Anything unexpected is a 500. */
export function httpStatusForGrpc(code: GrpcStatus): number {
  return HTTP_BY_GRPC[code] ?? 500;
}

/** What the caller is told when something this call depends on is down (never its internal text). */
export const DEPENDENCY_DOWN = 'A service this request needs is unavailable. Please try again shortly.';

/** Names of the MongoDB driver's errors for a database it cannot reach (server selection, network). */
const DATABASE_DOWN = /^Mongo(ServerSelection|Network|NetworkTimeout|TopologyClosed)Error$/;

/**
 * What a gRPC handler sends back for an error: user messages for AppErrors; UNAVAILABLE (503) or
 * DEADLINE_EXCEEDED (504) when another service or the database could not be reached, so a client
 * knows a retry may succeed; a generic INTERNAL otherwise.
 */
export function toServiceError(err: unknown): Partial<ServiceError> {
  if (err instanceof AppError) return { code: err.code, details: err.message, metadata: new Metadata() };
  if (
    isServiceError(err) &&
    (err.code === GrpcStatus.UNAVAILABLE || err.code === GrpcStatus.DEADLINE_EXCEEDED)
  )
    return { code: err.code, details: DEPENDENCY_DOWN, metadata: new Metadata() };
  if (err instanceof Error && DATABASE_DOWN.test(err.name))
    return { code: GrpcStatus.UNAVAILABLE, details: DEPENDENCY_DOWN, metadata: new Metadata() };
  return { code: GrpcStatus.INTERNAL, details: 'Internal error', metadata: new Metadata() };
}

export function isServiceError(err: unknown): err is ServiceError {
  return typeof err === 'object' && err !== null && 'code' in err && 'details' in err && 'metadata' in err;
}

export { GrpcStatus };
