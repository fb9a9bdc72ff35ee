import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { INFRA } from '@qm/testkit';
import { connectBus, createMailer, faultsFromEnv, mailMessage, makeEvent } from '../src';
import { eventually, log, testBus } from './infra';

// docs/FAULTS.md: flags from QM_FAULTS (fixed) and a flagd file (read at run time, QM_FAULTS_FILE).
describe('fault flags', () => {
  it('are off and free without configuration, and refuse a malformed QM_FAULTS with a clear message', async () => {
    const none = await faultsFromEnv({}, log);
    expect([none.active, await none.on('emailFailure'), await none.number('eventBusDelayMs')]).toEqual([
      false,
      false,
      0,
    ]);
    await expect(faultsFromEnv({ QM_FAULTS: 'walletUnreachable' }, log)).rejects.toThrow(/JSON object/);
    await expect(faultsFromEnv({ QM_FAULTS: '{"emailFailure":"yes"}' }, log)).rejects.toThrow(
      /booleans or numbers/,
    );
  });

  it('follow a flagd file as it changes, QM_FAULTS winning over it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'qm-flags-'));
    const file = path.join(dir, 'flags.json');
    const write = (on: 'on' | 'off') =>
      writeFileSync(
        file,
        JSON.stringify({
          flags: {
            emailFailure: { state: 'ENABLED', variants: { on: true, off: false }, defaultVariant: on },
            eventBusDelayMs: { state: 'ENABLED', variants: { none: 0, some: 250 }, defaultVariant: 'some' },
          },
        }),
      );
    write('off');
    const faults = await faultsFromEnv({ QM_FAULTS_FILE: file, QM_FAULTS: '{"eventBusDelayMs":5}' }, log);
    try {
      expect(await faults.on('emailFailure')).toBe(false);
      expect(await faults.number('eventBusDelayMs')).toBe(5);
      expect(await faults.on('noSuchFlag')).toBe(false);
      // Written again until seen: fs.watchFile takes its first stat asynchronously, and a change made
      // before that stat is the baseline, never a change (under a loaded CI machine it was missed).
      await eventually(() => {
        write('on');
        return faults.on('emailFailure');
      }, 25_000);
    } finally {
      await faults.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 40_000);

  it('emailFailure makes every send fail; off, mail goes out', async () => {
    const message = mailMessage('Fault test', ['Hello']);
    const failing = createMailer({
      smtpUrl: INFRA.SMTP_URL,
      from: 'qm@test.local',
      log,
      faults: await faultsFromEnv({ QM_FAULTS: '{"emailFailure":true}' }, log),
    });
    const working = createMailer({
      smtpUrl: INFRA.SMTP_URL,
      from: 'qm@test.local',
      log,
      faults: await faultsFromEnv({ QM_FAULTS: '{"emailFailure":false}' }, log),
    });
    try {
      await expect(failing.send('someone@test.local', message)).rejects.toThrow(/fault flag emailFailure/);
      await expect(working.send('someone@test.local', message)).resolves.toBeUndefined();
    } finally {
      failing.close();
      working.close();
    }
  });

  it('eventBusDelayMs holds every publish back by its milliseconds', async () => {
    const bus = await testBus('faults');
    const slow = await connectBus({
      servers: INFRA.NATS_URL,
      name: 'faults-slow',
      log,
      prefix: bus.prefix,
      faults: await faultsFromEnv({ QM_FAULTS: '{"eventBusDelayMs":300}' }, log),
    });
    try {
      await slow.ensureStreams([{ name: 'QM_FAULTS_TEST', subjects: ['faults.>'] }]);
      const started = Date.now();
      await slow.publish('faults.test', makeEvent('faults.test', { n: 1 }));
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    } finally {
      await slow.close();
      await bus.close();
    }
  });
});
