// A tiny gRPC service for the replica tests (grpc-replicas.test.ts). Run as a script it is a
// replica in a process of its own: `tsx replica-fixture.ts <name>` prints its port, answers with its
// name, and is SIGKILLed by a call that asks it to die ({ die: true }), with that call under way.
import { createGrpcServer, createLogger, type GrpcServer, type UnaryMethod } from '../src';

export interface Req {
  idempotencyKey?: string;
  die?: boolean;
}
export interface Res {
  replica: string;
}

const json = <T>() => ({
  serialize: (v: T) => Buffer.from(JSON.stringify(v)),
  deserialize: (b: Buffer) => JSON.parse(b.toString()) as T,
});
function method(name: string): UnaryMethod<Req, Res> {
  const req = json<Req>();
  const res = json<Res>();
  return {
    path: `/qm.replicas.v1.ReplicasService/${name}`,
    requestStream: false,
    responseStream: false,
    requestSerialize: req.serialize,
    requestDeserialize: req.deserialize,
    responseSerialize: res.serialize,
    responseDeserialize: res.deserialize,
  };
}
export const definition = { GetReplica: method('GetReplica'), PlaceThing: method('PlaceThing') };
export type Handler = (req: Req) => Promise<Res>;

/** A replica on a free port of loopback; `handle` answers both methods. */
export async function startReplica(handle: Handler): Promise<{ server: GrpcServer; port: number }> {
  const server = createGrpcServer(createLogger('replica-fixture', 'silent'));
  server.add('qm.replicas.v1.ReplicasService', definition, { GetReplica: handle, PlaceThing: handle });
  const port = await server.listen(0);
  server.setServing(true);
  return { server, port };
}

if (require.main === module) {
  const name = process.argv[2] ?? 'replica';
  void startReplica(async (req) => {
    if (req.die) {
      // Dies with this call under way, as a SIGKILL in production would.
      setTimeout(() => process.kill(process.pid, 'SIGKILL'), 20);
      return new Promise<Res>(() => {});
    }
    return { replica: name };
  }).then(({ port }) => console.log(port));
}
