#!/usr/bin/env node
// Waits until the local infrastructure started elsewhere (`make infra` in another terminal, a CI step)
// answers its health checks; exits 1 naming what is still down after the timeout.
//
//   node scripts/wait-infra.mjs [--timeout <seconds>]   (default 180, Keycloak's first start is slow)
import { parseArgs } from 'node:util';
import { httpCheck, mongoPing, tcpCheck } from './stack/index.mjs';

const { values } = parseArgs({ options: { timeout: { type: 'string', default: '180' } } });
const deadline = Date.now() + Number(values.timeout) * 1000;

const checks = {
  nats: () => httpCheck('http://127.0.0.1:8222/healthz'),
  ferretdb: () => mongoPing('mongodb://127.0.0.1:27017'),
  keycloak: () => httpCheck('http://127.0.0.1:8081/realms/quartermaster/.well-known/openid-configuration'),
  maildev: async () => {
    const smtp = await tcpCheck(1025);
    return smtp === true ? httpCheck('http://127.0.0.1:1080/healthz') : smtp;
  },
};

const pending = new Map(Object.entries(checks));
const last = new Map();
while (pending.size && Date.now() < deadline) {
  for (const [name, check] of pending) {
    const result = await check();
    if (result === true) {
      console.log(`${name} is up`);
      pending.delete(name);
    } else last.set(name, result);
  }
  if (pending.size) await new Promise((r) => setTimeout(r, 500));
}
if (pending.size) {
  for (const name of pending.keys()) console.error(`${name} is not up: ${last.get(name)}`);
  process.exit(1);
}
