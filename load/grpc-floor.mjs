#!/usr/bin/env node
// The floor of one gRPC hop on this machine: a grpc-js unary call between two Node processes, the
// server answering from memory, with the same concurrency as `make bench` (20 in flight). Prints the CPU
// each side spends per call, which no code of ours is in; the budgeted gateway read crosses one such hop (gateway →
// identity) besides its HTTP request and the database read.
//
//   node load/grpc-floor.mjs            (GRPC_FLOOR_CALLS=20000 GRPC_FLOOR_CONCURRENCY=20)
import { fork } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as grpc from '@grpc/grpc-js';

const CALLS = Number(process.env.GRPC_FLOOR_CALLS ?? 20_000);
const CONCURRENCY = Number(process.env.GRPC_FLOOR_CONCURRENCY ?? 20);
// About the size of a user read's answer.
const ANSWER = Buffer.alloc(400, 1);
const same = (b) => b;
const definition = {
  read: {
    path: '/floor.Floor/Read',
    requestStream: false,
    responseStream: false,
    requestSerialize: same,
    requestDeserialize: same,
    responseSerialize: same,
    responseDeserialize: same,
  },
};

/**
 * The server in a process of its own, and a client of it: `call()` makes one unary call, `ask('cpu')`
 * answers the server's process.cpuUsage(). load/op-floor.ts uses it too.
 */
export async function floorPeer(request = Buffer.alloc(16)) {
  const child = fork(fileURLToPath(import.meta.url), ['server']);
  const ask = (what, key) =>
    new Promise((resolve) => {
      const on = (m) => {
        if (key in m) {
          child.off('message', on);
          resolve(m[key]);
        }
      };
      child.on('message', on);
      if (what) child.send(what);
    });
  const port = await ask(undefined, 'port');
  const Client = grpc.makeGenericClientConstructor(definition, 'Floor');
  const client = new Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  return {
    call: () =>
      new Promise((resolve, reject) =>
        client.read(request, (err, res) => (err ? reject(err) : resolve(res))),
      ),
    ask,
    close() {
      client.close();
      child.kill();
    },
  };
}

const isMain = import.meta.url === pathToFileURL(process.argv[1] ?? '').href;
if (isMain && process.argv[2] === 'server') {
  const server = new grpc.Server();
  server.addService(definition, { read: (_call, done) => done(null, ANSWER) });
  server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, port) => {
    if (err) throw err;
    process.send({ port });
  });
  process.on('message', (m) => {
    if (m === 'cpu') process.send({ cpu: process.cpuUsage() });
  });
} else if (isMain) {
  const { call, ask, close } = await floorPeer();
  const run = async (n) => {
    let left = n;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (left-- > 0) await call();
      }),
    );
  };
  await run(2_000); // warm-up: JIT and the HTTP/2 session
  const clientBefore = process.cpuUsage();
  const serverBefore = await ask('cpu', 'cpu');
  const started = process.hrtime.bigint();
  await run(CALLS);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const clientCpu = process.cpuUsage(clientBefore);
  const serverAfter = await ask('cpu', 'cpu');
  const ms = (u) => (u.user + u.system) / 1000 / CALLS;
  const serverCpu = {
    user: serverAfter.user - serverBefore.user,
    system: serverAfter.system - serverBefore.system,
  };
  console.log(
    `grpc-js unary call, ${CALLS} calls, ${CONCURRENCY} in flight: ${Math.round(CALLS / seconds)} calls/s; ` +
      `CPU per call: client ${ms(clientCpu).toFixed(3)} ms, server ${ms(serverCpu).toFixed(3)} ms`,
  );
  close();
}
