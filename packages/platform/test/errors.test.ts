import { Metadata } from '@grpc/grpc-js';
import { DEPENDENCY_DOWN, GrpcStatus, invalid, toServiceError } from '../src/errors';

/** A downstream gRPC failure as @grpc/grpc-js rejects a client call with it. */
function grpcFailure(code: GrpcStatus, details: string) {
  return Object.assign(new Error(`${code} ${details}`), { code, details, metadata: new Metadata() });
}

describe('toServiceError: what a failed handler answers', () => {
  it('passes a refusal on with its message', () => {
    expect(toServiceError(invalid('Quantity must be at least 1'))).toMatchObject({
      code: GrpcStatus.INVALID_ARGUMENT,
      details: 'Quantity must be at least 1',
    });
  });

  it('answers UNAVAILABLE or DEADLINE_EXCEEDED when a service it called was down or slow, without its text', () => {
    const down = grpcFailure(
      GrpcStatus.UNAVAILABLE,
      'No connection established. connect ECONNREFUSED 127.0.0.1:50051',
    );
    expect(toServiceError(down)).toMatchObject({ code: GrpcStatus.UNAVAILABLE, details: DEPENDENCY_DOWN });
    const slow = grpcFailure(GrpcStatus.DEADLINE_EXCEEDED, 'Deadline exceeded after 5.001s');
    expect(toServiceError(slow)).toMatchObject({
      code: GrpcStatus.DEADLINE_EXCEEDED,
      details: DEPENDENCY_DOWN,
    });
  });

  it('answers UNAVAILABLE when the database cannot be reached', () => {
    const err = new Error('connection 7 to 127.0.0.1:27017 closed');
    err.name = 'MongoServerSelectionError';
    expect(toServiceError(err)).toMatchObject({ code: GrpcStatus.UNAVAILABLE, details: DEPENDENCY_DOWN });
  });

  it('keeps anything else an INTERNAL error with a generic text', () => {
    expect(toServiceError(new TypeError('x is undefined'))).toMatchObject({
      code: GrpcStatus.INTERNAL,
      details: 'Internal error',
    });
    // A downstream's own internal error is this call's internal error too.
    expect(toServiceError(grpcFailure(GrpcStatus.INTERNAL, 'Internal error'))).toMatchObject({
      code: GrpcStatus.INTERNAL,
    });
  });
});
