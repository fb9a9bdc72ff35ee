describe('the shell sets zod to jitless before any schema is built', () => {
  afterEach(() => {
    delete (globalThis as { __zod_globalConfig?: unknown }).__zod_globalConfig;
  });

  it('zod adopts the setting the shell leaves on globalThis', async () => {
    await jest.isolateModulesAsync(async () => {
      await import('../src/zodConfig');
      const { config } = await import('zod/v4/core');
      expect(config().jitless).toBe(true);
    });
  });

  it('without it zod would compile schemas (so the test above means something)', async () => {
    await jest.isolateModulesAsync(async () => {
      const { config } = await import('zod/v4/core');
      expect(config().jitless).toBeUndefined();
    });
  });
});
