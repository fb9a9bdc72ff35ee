/** Types derived from a ts-proto grpc-js service definition, so handlers and clients stay typed. */
export interface UnaryMethod<Req, Res> {
  readonly path: string;
  readonly requestStream: false;
  readonly responseStream: false;
  readonly requestSerialize: (value: Req) => Buffer;
  readonly requestDeserialize: (value: Buffer) => Req;
  readonly responseSerialize: (value: Res) => Buffer;
  readonly responseDeserialize: (value: Buffer) => Res;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyUnaryMethod = UnaryMethod<any, any>;
export type ServiceDef = Record<string, AnyUnaryMethod>;

export type RequestOf<M> = M extends { requestDeserialize: (value: Buffer) => infer Req } ? Req : never;
export type ResponseOf<M> = M extends { responseDeserialize: (value: Buffer) => infer Res } ? Res : never;
