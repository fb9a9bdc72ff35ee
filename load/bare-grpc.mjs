// The floor of the gateway's read for `make bench`: a second process behind the bare Express handler,
// reached over gRPC (grpc-js, as the services are) and reading the same user document with the
// driver. No gateway middleware, no session, no service code: what two processes and one gRPC hop
// cost by themselves, so that the gateway path can be judged against it as well as against the
// bare read (docs/architecture.md §8).
import { Server, ServerCredentials } from '@grpc/grpc-js';
import { MongoClient } from 'mongodb';
import { pathToFileURL } from 'node:url';

const json = {
  serialize: (value) => Buffer.from(JSON.stringify(value)),
  deserialize: (bytes) => JSON.parse(bytes.toString()),
};
/** One unary method; its definition is shared with the client in bare-express.mjs. */
export const GET_USER = {
  path: '/bare.Users/Get',
  requestStream: false,
  responseStream: false,
  requestSerialize: json.serialize,
  requestDeserialize: json.deserialize,
  responseSerialize: json.serialize,
  responseDeserialize: json.deserialize,
};
export const CARD_FIELDS = {
  _id: 0,
  id: 1,
  firstName: 1,
  lastName: 1,
  yearsOfExperience: 1,
  licenseNumber: 1,
};

/** The users collection of the identity database, on a pool as large as the service's (DEFAULT_POOL_SIZE in @qm/platform). */
export async function connectUsers() {
  const mongo = new MongoClient(process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017', { maxPoolSize: 10 });
  await mongo.connect();
  return { mongo, users: mongo.db(process.env.IDENTITY_DB ?? 'qm_identity').collection('users') };
}

/** Serves `get` as the one method on a free loopback port, tells the parent which, and stops on SIGTERM. */
export function serveUsers(get, mongo) {
  const server = new Server();
  server.addService({ get: GET_USER }, { get });
  server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (err, port) => {
    if (err) throw err;
    process.send?.({ port });
  });
  process.on('SIGTERM', () => server.tryShutdown(() => mongo.close().then(() => process.exit(0))));
}

// Started as a process of its own (bench.mjs forks it); the other scripts import only the definitions.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { mongo, users } = await connectUsers();
  serveUsers(({ request }, done) => {
    users.findOne({ id: request.id }, { projection: CARD_FIELDS }).then(
      (user) => done(null, { user }),
      (err) => done(err),
    );
  }, mongo);
}
