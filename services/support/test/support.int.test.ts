import { type AdminQueriesPage, SUPPORT_LIMITS, SUPPORT_MESSAGES as MSG } from '@qm/contracts/rest';
import { type QueryRepliedData, SUPPORT_SUBJECTS } from '@qm/contracts/events';
import { connectBus, type EventEnvelope, newRequestId, runWithContext } from '@qm/platform';
import { eventually, INFRA, testLog } from '@qm/testkit';
import { headerSessions, startGateway } from '@qm/testkit/src/gateway';
import { Browser } from '@qm/testkit/src/identity-stack';
import { mailsTo, waitForMail } from '@qm/testkit/src/maildev';
import { CONTACT_RATE_LIMIT } from '@qm/gateway/src/routes/support';
import { contactForm, startSupportStack, type SupportStack } from './stack';

/**
 * The support service against the real stack: the contact form, the administrators' inbox and the
 * status rules of docs/product.md §4, the replies arriving in maildev, and who may call what.
 */
jest.setTimeout(90_000);

describe('support: contact form and the administrators’ query inbox', () => {
  let s: SupportStack;

  beforeAll(async () => {
    s = await startSupportStack();
  }, 120_000);
  afterAll(async () => {
    await s?.stop();
  });

  const submit = async (overrides: Record<string, unknown> = {}) => {
    const form = contactForm(overrides);
    const res = await s.visitor.post('/api/contact', form);
    expect(res.status).toBe(201);
    return { form, id: res.body.id as number };
  };
  const list = async (query = '') => {
    const res = await s.admin.get(`/api/admin/queries${query}`);
    expect(res.status).toBe(200);
    return res.body as AdminQueriesPage;
  };
  const reply = (id: number, status: string, response: string) =>
    s.admin.patch(`/api/admin/queries/${id}/status`, { status, response });

  it('a visitor’s query is stored pending and listed for the administrators, newest first', async () => {
    const res = await s.visitor.post('/api/contact', contactForm({ fullName: '  Vikram Singh  ' }));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ message: MSG.submitSuccess, id: expect.any(Number), status: 'pending' });
    const { id: newer } = await submit();
    const page = await list();
    expect(page.queries.map((q) => q.id).slice(0, 2)).toEqual([newer, res.body.id]);
    expect(page.queries[1]).toMatchObject({ fullName: 'Vikram Singh', status: 'pending', response: null });
  });

  it('refuses bad input with the field’s message (400), never a 500', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ fullName: '   ' }, MSG.fullNameRequired],
      [{ email: 'nobody' }, MSG.emailInvalid],
      [{ subject: undefined }, MSG.subjectRequired],
      [{ message: '' }, MSG.messageRequired],
      [{ message: 'x'.repeat(SUPPORT_LIMITS.messageMax + 1) }, MSG.messageTooLong],
      [{ subject: 'x'.repeat(SUPPORT_LIMITS.subjectMax + 1) }, MSG.subjectTooLong],
      [{ fullName: 42 }, MSG.fullNameRequired],
    ];
    for (const [overrides, message] of cases) {
      const res = await s.visitor.post('/api/contact', contactForm(overrides));
      expect({ status: res.status, message: res.body.message }).toEqual({ status: 400, message });
    }
  });

  it('the cards count every query by status whatever the filter; the filter pages one status', async () => {
    const before = await list('?status=resolved');
    const { id } = await submit();
    expect((await reply(id, 'resolved', 'Done')).status).toBe(200);
    const after = await list('?status=resolved&pageSize=1');
    expect(after.queries).toHaveLength(1);
    expect(after.queries[0]).toMatchObject({ id, status: 'resolved' });
    expect(after.total).toBe(before.total + 1);
    expect(after.resolvedCount).toBe(before.resolvedCount + 1);
    expect(after.allCount).toBe(after.pendingCount + after.inProgressCount + after.resolvedCount);
    const pending = await list('?status=pending&pageSize=32');
    expect(pending.queries.every((q) => q.status === 'pending')).toBe(true);
    expect(pending.total).toBe(after.pendingCount);
    expect((await s.admin.get('/api/admin/queries?status=open')).status).toBe(400);
    expect((await s.admin.get('/api/admin/queries?pageSize=33')).status).toBe(400);
  });

  it('pending → in-progress → resolved, each reply emailed to the query’s address', async () => {
    const { form, id } = await submit();
    const t0 = Date.now() - 1000;
    const first = await reply(id, 'in-progress', 'We are checking with the courier.');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      message: MSG.updateSuccess,
      query: { id, status: 'in-progress', response: 'We are checking with the courier.' },
    });
    const mail1 = await waitForMail(form.email, new RegExp(form.subject), t0);
    expect(mail1.subject).toBe(`Re: ${form.subject}`);
    expect(mail1.text).toContain('We are checking with the courier.');
    expect(mail1.text).toContain(form.message);

    // in-progress may not be marked in progress again, only resolved.
    expect((await reply(id, 'in-progress', 'Again')).body).toEqual({ message: MSG.notPending });
    const second = await reply(id, 'resolved', 'Delivered this morning.');
    expect(second.body.query).toMatchObject({ status: 'resolved', response: 'Delivered this morning.' });
    // The resolved query keeps the thread: both replies, oldest first, with the status each set.
    expect(second.body.query.replies).toEqual([
      { response: 'We are checking with the courier.', status: 'in-progress', at: expect.any(String) },
      { response: 'Delivered this morning.', status: 'resolved', at: expect.any(String) },
    ]);
    const listed = await list('?status=resolved&pageSize=32');
    expect(listed.queries.find((q: { id: number }) => q.id === id)?.replies).toHaveLength(2);
    await eventually(async () =>
      (await mailsTo(form.email)).some((m) => m.text.includes('Delivered this morning.')),
    );
  });

  it('a signed-in sender is remembered: the reply’s event names them for the live toast', async () => {
    const bus = await connectBus({
      servers: INFRA.NATS_URL,
      name: 'support-test-listener',
      log: testLog('support-test'),
      prefix: s.eventsPrefix,
    });
    const heard: QueryRepliedData[] = [];
    const stop = bus.listen(SUPPORT_SUBJECTS.replied, (e: EventEnvelope) =>
      heard.push(e.data as QueryRepliedData),
    );
    try {
      const form = contactForm();
      const sent = await s.army.as.post('/api/contact', form);
      expect(sent.status).toBe(201);
      const { id: anonymous } = await submit();
      expect((await reply(sent.body.id, 'resolved', 'Sent by air.')).status).toBe(200);
      expect((await reply(anonymous, 'in-progress', 'Looking.')).status).toBe(200);
      await eventually(() => heard.length >= 2 || undefined);
      expect(heard.find((e) => e.queryId === sent.body.id)).toMatchObject({
        status: 'resolved',
        subject: form.subject,
        userId: s.army.who.id,
      });
      expect(heard.find((e) => e.queryId === anonymous)?.userId).toBeUndefined();
    } finally {
      stop();
      await bus.close();
    }
  });

  it('a pending query may be resolved at once', async () => {
    const { form, id } = await submit();
    const res = await reply(id, 'resolved', '  Answered in the FAQ.  ');
    expect(res.body.query).toMatchObject({ status: 'resolved', response: 'Answered in the FAQ.' });
    expect((await waitForMail(form.email, /^Re: /)).text).toContain('Answered in the FAQ.');
  });

  it('a resolved query is final: 409 with a clear message, and no further mail', async () => {
    const { form, id } = await submit();
    await reply(id, 'resolved', 'Closed.');
    await waitForMail(form.email, /^Re: /);
    for (const status of ['resolved', 'in-progress']) {
      const res = await reply(id, status, 'One more thing');
      expect({ status: res.status, body: res.body }).toEqual({
        status: 409,
        body: { message: MSG.alreadyResolved },
      });
    }
    await new Promise((r) => setTimeout(r, 1500));
    expect(await mailsTo(form.email)).toHaveLength(1);
    const q = (await list('?status=resolved&pageSize=32')).queries.find((x) => x.id === id);
    expect(q?.response).toBe('Closed.');
  });

  it('two administrators answering at once: one move applies, the other is 409, one mail', async () => {
    const { form, id } = await submit();
    const other = new Browser(s.stack.url);
    other.cookie = s.admin.cookie;
    const results = await Promise.all([
      reply(id, 'in-progress', 'First answer'),
      other.patch(`/api/admin/queries/${id}/status`, { status: 'in-progress', response: 'Second answer' }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const won = results.find((r) => r.status === 200)!.body.query.response as string;
    expect((await waitForMail(form.email, /^Re: /)).text).toContain(won);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await mailsTo(form.email)).toHaveLength(1);
    // The loser's event was dropped with its write: nothing left for the relay.
    expect(await s.support!.rt.conn.collection('outbox').countDocuments({})).toBe(0);
  });

  it('blank response 400, unknown status 400, unknown id 404, bad id 400', async () => {
    const { id } = await submit();
    expect((await reply(id, 'resolved', '   ')).body).toEqual({ message: MSG.responseRequired });
    expect((await reply(id, 'pending', 'x')).body).toEqual({ message: MSG.statusInvalid });
    expect((await reply(id, 'resolved', 'x'.repeat(SUPPORT_LIMITS.responseMax + 1))).status).toBe(400);
    const unknown = await reply(999_999_999, 'resolved', 'Hello');
    expect({ status: unknown.status, body: unknown.body }).toEqual({
      status: 404,
      body: { message: MSG.queryNotFound },
    });
    expect(
      (await s.admin.patch('/api/admin/queries/abc/status', { status: 'resolved', response: 'x' })).status,
    ).toBe(400);
    // None of these touched the query.
    const q = (await list('?status=pending&pageSize=32')).queries.find((x) => x.id === id);
    expect(q?.status).toBe('pending');
  });

  it('the inbox is for administrators only: 401 signed out, 403 for a user', async () => {
    const { id } = await submit();
    const body = { status: 'resolved', response: 'Hi' };
    for (const [who, status] of [
      [s.visitor, 401],
      [s.army.as, 403],
    ] as const) {
      expect((await who.get('/api/admin/queries')).status).toBe(status);
      expect((await who.patch(`/api/admin/queries/${id}/status`, body)).status).toBe(status);
    }
    // A signed-in user may use the contact form too.
    expect((await s.army.as.post('/api/contact', contactForm())).status).toBe(201);
  });

  it('the support service itself refuses a non-administrator (not only the gateway)', async () => {
    const grpc = s.stack.clients.support;
    const req = { page: 1, pageSize: 10, status: 0 };
    await expect(grpc.listQueries(req)).rejects.toMatchObject({ code: 16 }); // UNAUTHENTICATED
    const army = { userId: s.army.who.id, username: s.army.who.username, roles: ['Army'] };
    await expect(
      runWithContext({ requestId: newRequestId(), caller: army }, () => grpc.listQueries(req)),
    ).rejects.toMatchObject({ code: 7 }); // PERMISSION_DENIED
    await expect(
      runWithContext({ requestId: newRequestId(), caller: army }, () =>
        grpc.updateQueryStatus({ queryId: 1, status: 3, response: 'x' }),
      ),
    ).rejects.toMatchObject({ code: 7 });
  });
});

describe('POST /api/contact is rate-limited per client address', () => {
  it('answers 429 with the message past the limit', async () => {
    const gw = await startGateway({ NODE_ENV: 'test', SUPPORT_GRPC_ADDR: '127.0.0.1:1' }, headerSessions({}));
    try {
      const visitor = new Browser(gw.url);
      // The service is not there (503), but the limiter counts every attempt before it.
      for (let i = 0; i < CONTACT_RATE_LIMIT.limit; i++)
        expect((await visitor.post('/api/contact', contactForm())).status).not.toBe(429);
      const res = await visitor.post('/api/contact', contactForm());
      expect({ status: res.status, body: res.body }).toEqual({
        status: 429,
        body: { message: MSG.tooManySubmissions },
      });
    } finally {
      await gw.stop();
    }
  });
});
