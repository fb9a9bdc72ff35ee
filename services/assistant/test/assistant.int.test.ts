import { assistantV1 } from '@qm/contracts/grpc';
import {
  type Caller,
  createClient,
  GrpcStatus,
  newRequestId,
  type RunningService,
  runWithContext,
  startService,
} from '@qm/platform';
import { serviceTestEnv, testCallerSigner, uniqueName } from '@qm/testkit';
import { headerSessions, json, startGateway } from '@qm/testkit/src/gateway';
import { assistantService } from '../src/service';
import { openAiServer } from './openai-server';

jest.setTimeout(60_000);

const maker: Caller = { userId: 41, username: 'maker', roles: ['Manufacturer'] };
const army: Caller = { userId: 42, username: 'sepoy', roles: ['Army'] };
const admin: Caller = { userId: 1, username: 'admin', roles: ['Admin'] };

/** The real assistant service in-process (own database) behind a real in-process gateway. */
async function startStack(env: Record<string, string>) {
  const svc: RunningService<unknown> = (await startService(
    assistantService,
    serviceTestEnv(uniqueName('qm_test_assistant'), { GRPC_PORT: '0', ...env }),
  )) as RunningService<unknown>;
  const gw = await startGateway(
    { ASSISTANT_GRPC_ADDR: `127.0.0.1:${svc.port}` },
    headerSessions({ maker, army, admin }),
  );
  const client = createClient(assistantV1.AssistantServiceService, `127.0.0.1:${svc.port}`, {
    signer: testCallerSigner,
  });
  return {
    svc,
    generate: (body: unknown, who: string | null = 'maker') =>
      fetch(`${gw.url}/api/ai/generate-description`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(who ? { 'x-test-user': who } : {}) },
        body: JSON.stringify(body),
      }),
    grpc: (req: assistantV1.GenerateDescriptionRequest, caller: Caller | null = maker) =>
      runWithContext({ requestId: newRequestId(), caller: caller ?? undefined }, () =>
        client.generateDescription(req),
      ),
    async stop() {
      client.close();
      await gw.stop();
      await svc.rt.conn.dropDatabase().catch(() => undefined);
      await svc.stop();
    },
  };
}

describe('description generator without a model configured', () => {
  let s: Awaited<ReturnType<typeof startStack>>;
  beforeAll(async () => {
    s = await startStack({});
  });
  afterAll(() => s?.stop());

  it('composes a description from the name, type and features', async () => {
    const res = await s.generate({
      name: 'Falcon X',
      category: 'Vehicle',
      features: 'Armoured hull, run-flat tyres',
    });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(Object.keys(body)).toEqual(['description']);
    expect(body.description).toMatch(
      /^Falcon X is a military vehicle featuring armoured hull and run-flat tyres\./,
    );
    expect(body.description.split('. ').length).toBeGreaterThanOrEqual(4);
  });

  it('uses "military-grade performance, advanced capabilities" when features are empty', async () => {
    for (const features of ['', undefined, '   ']) {
      const body = await json(await s.generate({ name: 'Rifle', category: 'Weapon', features }));
      expect(body.description).toContain('military-grade performance and advanced capabilities');
    }
    const direct = await s.grpc({ name: 'Rifle', category: 'Weapon', features: '' });
    expect(direct.source).toBe(assistantV1.DescriptionSource.DESCRIPTION_SOURCE_BUILTIN);
  });

  it('answers 400 "Missing information" without a name or a type, in the gateway and the service', async () => {
    for (const body of [
      {},
      { category: 'Weapon' },
      { name: 'Rifle' },
      { name: '  ', category: 'Weapon' },
      { name: 'Rifle', category: '' },
    ]) {
      const res = await s.generate(body);
      expect(res.status).toBe(400);
      expect(await json(res)).toEqual({ message: 'Missing information' });
    }
    await expect(s.grpc({ name: '', category: 'Weapon', features: '' })).rejects.toMatchObject({
      code: GrpcStatus.INVALID_ARGUMENT,
      details: 'Missing information',
    });
  });

  it('is for signed-in users only', async () => {
    const res = await s.generate({ name: 'Rifle', category: 'Weapon' }, null);
    expect(res.status).toBe(401);
    await expect(s.grpc({ name: 'Rifle', category: 'Weapon', features: '' }, null)).rejects.toMatchObject({
      code: GrpcStatus.UNAUTHENTICATED,
    });
  });

  it('is for Manufacturers only (docs/product.md §6: only they create and edit products), in the gateway and the service', async () => {
    for (const who of ['army', 'admin']) {
      const res = await s.generate({ name: 'Rifle', category: 'Weapon' }, who);
      expect(res.status).toBe(403);
      // Refused before its input is looked at: a buyer learns nothing from the generator.
      expect((await s.generate({}, who)).status).toBe(403);
    }
    for (const caller of [army, admin])
      await expect(s.grpc({ name: 'Rifle', category: 'Weapon', features: '' }, caller)).rejects.toMatchObject(
        {
          code: GrpcStatus.PERMISSION_DENIED,
          details: 'Only manufacturers can generate product descriptions',
        },
      );
  });
});

describe('description generator with an OpenAI-compatible model', () => {
  let mode: 'ok' | 'error' | 'slow' | 'empty' = 'ok';
  let model: Awaited<ReturnType<typeof openAiServer>>;
  let s: Awaited<ReturnType<typeof startStack>>;
  const MODEL_TEXT =
    'The Falcon X carries thermal imaging for night operations. It is a weapon for trained personnel.';

  beforeAll(async () => {
    model = await openAiServer(() => {
      if (mode === 'error') return { status: 503 };
      if (mode === 'slow') return { status: 200, delayMs: 3000, content: 'too late' };
      if (mode === 'empty') return { status: 200, content: '   ' };
      return { status: 200, content: `  ${MODEL_TEXT}\n` };
    });
    s = await startStack({
      OPENAI_API_KEY: 'sk-test-key',
      OPENAI_BASE_URL: model.url,
      OPENAI_MODEL: 'test-model',
      OPENAI_TIMEOUT_MS: '500',
    });
  });
  afterAll(async () => {
    await s?.stop();
    await model?.close();
  });
  beforeEach(() => {
    mode = 'ok';
  });

  it("asks the model with the product's name, type and features, and returns its answer", async () => {
    const res = await s.generate({ name: 'Falcon X', category: 'Weapon', features: 'thermal imaging' });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ description: MODEL_TEXT });
    const req = model.seen.at(-1)!;
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.authorization).toBe('Bearer sk-test-key');
    expect(req.body.model).toBe('test-model');
    expect(req.body.messages[0]!.role).toBe('system');
    expect(req.body.messages[0]!.content).toMatch(/do not invent/);
    expect(req.body.messages[1]).toEqual({
      role: 'user',
      content:
        'Product name: Falcon X\nProduct type: Weapon\nKey features: thermal imaging\n\nWrite the product description.',
    });
    const direct = await s.grpc({ name: 'Falcon X', category: 'Weapon', features: '' });
    expect(direct.source).toBe(assistantV1.DescriptionSource.DESCRIPTION_SOURCE_MODEL);
    expect(model.seen.at(-1)!.body.messages[1]!.content).toContain(
      'Key features: military-grade performance, advanced capabilities',
    );
  });

  it.each([
    ['fails', 'error'],
    ['is too slow', 'slow'],
    ['answers nothing', 'empty'],
  ] as const)('falls back to the built-in generator when the model %s', async (_what, m) => {
    mode = m;
    const started = Date.now();
    const res = await s.generate({ name: 'Falcon X', category: 'Weapon', features: 'thermal imaging' });
    expect(res.status).toBe(200);
    expect((await json(res)).description).toMatch(/^Falcon X is a weapon system offering thermal imaging\./);
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it('works with only a base URL (a local server without a key)', async () => {
    const local = await startStack({ OPENAI_BASE_URL: model.url });
    try {
      const body = await json(await local.generate({ name: 'Falcon X', category: 'Weapon' }));
      expect(body.description).toBe(MODEL_TEXT);
      expect(model.seen.at(-1)!.body.model).toBe('gpt-4o-mini');
    } finally {
      await local.stop();
    }
  });
});
