import { z } from 'zod';
import { ConfigError, parseConfig, port, serviceEnv } from '../src/config';

describe('parseConfig', () => {
  it('applies defaults', () => {
    const c = parseConfig({ ...serviceEnv, GRPC_PORT: port(50052) }, {});
    expect(c.GRPC_PORT).toBe(50052);
    expect(c.MONGO_URL).toBe('mongodb://127.0.0.1:27017');
  });

  it('names every missing or malformed variable', () => {
    const shape = { ...serviceEnv, SECRET: z.string().min(1), GRPC_PORT: port(1) };
    expect(() => parseConfig(shape, { MONGO_URL: 'http://x', GRPC_PORT: 'abc' })).toThrow(ConfigError);
    try {
      parseConfig(shape, { MONGO_URL: 'http://x', GRPC_PORT: 'abc' });
    } catch (err) {
      const text = (err as Error).message;
      expect(text).toContain('SECRET');
      expect(text).toContain('MONGO_URL');
      expect(text).toContain('GRPC_PORT');
    }
  });
});
