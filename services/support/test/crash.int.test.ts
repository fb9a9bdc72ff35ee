import { SUPPORT_SUBJECTS } from '@qm/contracts/events';
import { SUPPORT_MESSAGES as MSG } from '@qm/contracts/rest';
import { eventually, INFRA } from '@qm/testkit';
import { mailsTo, waitForMail } from '@qm/testkit/src/maildev';
import { MongoClient } from 'mongodb';
import { contactForm, once503Gone, startSupportStack, type SupportStack } from './stack';

/**
 * A reply's mail survives the support process dying between the status write and the send: the
 * process is SIGKILLed right after the reply is written (QM_FAULT_OUTBOX_STALL holds the outbox
 * there, its event still unpublished), and once started again it publishes the event and mails
 * the reply — once — while a retried reply cannot apply the move a second time.
 */
jest.setTimeout(120_000);

describe('a reply’s mail after a crash', () => {
  let s: SupportStack;
  let client: MongoClient;

  beforeAll(async () => {
    s = await startSupportStack({ asProcess: true, gateway: { GRPC_DEADLINE_MS: '3000' } });
    client = await MongoClient.connect(INFRA.MONGO_URL);
  }, 180_000);
  afterAll(async () => {
    await client?.close();
    await s?.stop();
    await MongoClient.connect(INFRA.MONGO_URL)
      .then(async (c) => {
        await c.db(s.db).dropDatabase();
        await c.close();
      })
      .catch(() => undefined);
  });

  it('is sent once the killed process is back, and the move is not applied twice', async () => {
    const form = contactForm();
    const submitted = await s.visitor.post('/api/contact', form);
    expect(submitted.status).toBe(201);
    const id = submitted.body.id as number;

    // The process dies after writing the reply and before publishing its event (so before any
    // mail). Its own relay would publish a stalled entry after the grace: not within this test.
    await s.kill();
    await s.start({ QM_FAULT_OUTBOX_STALL: '1', OUTBOX_GRACE_MS: '600000' });
    const stalled = s.admin.patch(`/api/admin/queries/${id}/status`, {
      status: 'in-progress',
      response: 'We are on it.',
    });
    const db = client.db(s.db);
    const query = await eventually(() =>
      db.collection('queries').findOne({ _id: id as never, status: 'in-progress' }),
    );
    expect(query).toMatchObject({ response: 'We are on it.' });
    // The stalled reply's event (the form's, published before the kill, may wait to be removed).
    expect(
      await db.collection('outbox').countDocuments({ state: 'pending', subject: SUPPORT_SUBJECTS.replied }),
    ).toBe(1);
    await s.kill();
    expect([503, 504]).toContain((await stalled).status);
    expect(await mailsTo(form.email)).toHaveLength(0);

    // The admin retries while it is down, then after the restart: the move is not made again.
    expect(
      (await s.admin.patch(`/api/admin/queries/${id}/status`, { status: 'in-progress', response: 'x' }))
        .status,
    ).toBe(503);
    await s.start();
    const retried = await once503Gone(() =>
      s.admin.patch(`/api/admin/queries/${id}/status`, { status: 'in-progress', response: 'We are on it.' }),
    );
    expect({ status: retried.status, body: retried.body }).toEqual({
      status: 409,
      body: { message: MSG.notPending },
    });

    const mail = await waitForMail(form.email, /^Re: /);
    expect(mail.text).toContain('We are on it.');
    await new Promise((r) => setTimeout(r, 2000));
    expect(await mailsTo(form.email)).toHaveLength(1);
    await eventually(async () =>
      (await db.collection('outbox').countDocuments({})) === 0 ? true : undefined,
    );
  });
});
