// The baselines of `make bench` and of the k6 runs' ratios, in their own process: a bare Express
// handler answering a small JSON body, a bare Express handler reading the same user document the
// gateway path reads, straight from the database with the driver (no gateway, no gRPC, no service),
// the same read through a bare gRPC server in a second process (load/bare-grpc.mjs, when
// BARE_GRPC_PORT names it), and a bare update.
import { credentials, makeGenericClientConstructor } from '@grpc/grpc-js';
import express from 'express';
import { CARD_FIELDS, connectUsers, GET_USER } from './bare-grpc.mjs';

const app = express();
const body = { id: 1, name: 'Night vision goggles', price: '12500.50', stock: 4 };
app.get('/bare', (_req, res) => res.json(body));

// On the identity service's pool size, so both paths get as many database connections.
const { mongo, users } = await connectUsers();
/** The route's user id, or undefined after answering 400. */
function userId(req, res) {
  const id = Number(req.params.id);
  if (Number.isSafeInteger(id) && id >= 1) return id;
  res.status(400).json({ message: 'Invalid id' });
}

app.get('/bare-db/users/:id', async (req, res) => {
  const id = userId(req, res);
  if (id === undefined) return;
  const user = await users.findOne({ id }, { projection: CARD_FIELDS });
  if (!user) return res.status(404).json({ message: 'User not found' });
  res.json(user);
});

if (process.env.BARE_GRPC_PORT) {
  const Users = makeGenericClientConstructor({ get: GET_USER }, 'bare.Users');
  const client = new Users(`127.0.0.1:${process.env.BARE_GRPC_PORT}`, credentials.createInsecure());
  app.get('/bare-grpc/users/:id', (req, res) => {
    const id = userId(req, res);
    if (id === undefined) return;
    client.get({ id }, { deadline: Date.now() + 5_000 }, (err, reply) => {
      if (err) return res.status(502).json({ message: err.message });
      if (!reply.user) return res.status(404).json({ message: 'User not found' });
      res.json(reply.user);
    });
  });
}

// The bare-update probe of the k6 runs (load/k6-ratios.mjs): one findOneAndUpdate({ _id }, { $inc })
// per request, the unit their latency budgets are ratios of (load/lib/bue.mjs prices CPU in it).
const probes = mongo.db('qm_probe').collection('counters');
const bump = () =>
  probes.findOneAndUpdate(
    { _id: `probe:${Math.floor(Math.random() * 50)}` },
    { $inc: { n: 1 } },
    { upsert: true, returnDocument: 'after' },
  );
app.post('/bare-db/update', async (_req, res) => {
  const doc = await bump();
  res.json({ n: doc?.n ?? 0 });
});

// The sequence probe: `n` of the same update one after another in one request, the floor of any
// design whose operation needs n database round trips in a row (no logic, no hop, no service).
app.post('/bare-db/updates', async (req, res) => {
  const n = Number(req.query.n);
  if (!Number.isSafeInteger(n) || n < 1 || n > 100)
    return res.status(400).json({ message: 'n must be a whole number from 1 to 100' });
  let doc;
  for (let i = 0; i < n; i++) doc = await bump();
  res.json({ n: doc?.n ?? 0 });
});

const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.send?.({ port: server.address().port });
});
process.on('SIGTERM', () => server.close(() => mongo.close().then(() => process.exit(0))));
