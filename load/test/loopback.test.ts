import { loopbackOnly } from '../lib/loopback.cjs';

describe('loopbackOnly', () => {
  it.each([
    'http://127.0.0.1:8080',
    'http://localhost:8080/api',
    'http://[::1]:8080',
    'mongodb://127.0.0.1:27017/?directConnection=true',
    'postgres://quartermaster:secret@127.0.0.1:5432/qm',
    'nats://localhost:4222',
    'smtp://127.0.0.1:1025',
  ])('lets %s through', (url) => {
    expect(() => loopbackOnly(url)).not.toThrow();
  });

  it('lets an option that is not set through', () => {
    expect(() => loopbackOnly(undefined, '', null)).not.toThrow();
  });

  it.each([
    'https://example.com',
    'http://10.0.0.5:8080',
    'http://localhost.example.com',
    'http://127.0.0.1@example.com/',
    'http://127.0.0.1:80@example.com',
    'mongodb://db.internal:27017',
  ])('refuses %s', (url) => {
    expect(() => loopbackOnly('http://127.0.0.1:8080', url)).toThrow(`anything but loopback: ${url}`);
  });
});
