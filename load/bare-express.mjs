// The baseline of `make bench`: a bare Express handler answering a small JSON body, in its own process.
import express from 'express';

const app = express();
const body = { id: 1, name: 'Night vision goggles', price: '12500.50', stock: 4 };
app.get('/bare', (_req, res) => res.json(body));
const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.send?.({ port: server.address().port });
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
