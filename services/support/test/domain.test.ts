import {
  queryMoveAllowed,
  ContactBody,
  QUERY_MOVES,
  SUPPORT_LIMITS,
  SUPPORT_MESSAGES as MSG,
  UpdateQueryStatusBody,
} from '@qm/contracts/rest';
import { refusedMove, replyOf, type QueryRecord } from '../src/domain/query';

describe('query status moves (docs/product.md §4)', () => {
  it('a pending query may be replied to and marked in progress, or resolved', () => {
    expect(refusedMove('pending', 'in-progress')).toBeUndefined();
    expect(refusedMove('pending', 'resolved')).toBeUndefined();
  });

  it('an in-progress query may only be resolved', () => {
    expect(refusedMove('in-progress', 'resolved')).toBeUndefined();
    expect(refusedMove('in-progress', 'in-progress')).toBe(MSG.notPending);
  });

  it('a resolved query accepts no further response, with the message the admin sees', () => {
    expect(refusedMove('resolved', 'resolved')).toBe(MSG.alreadyResolved);
    expect(refusedMove('resolved', 'in-progress')).toBe(MSG.alreadyResolved);
  });

  it('the table the dialog reads has exactly these moves', () => {
    expect(QUERY_MOVES).toEqual({
      pending: ['in-progress', 'resolved'],
      'in-progress': ['resolved'],
      resolved: [],
    });
    expect(queryMoveAllowed('resolved', 'pending')).toBe(false);
    expect(queryMoveAllowed('in-progress', 'pending')).toBe(false);
  });

  it('finds a reply by its id (the outbox asks whether a reply landed)', () => {
    const at = new Date();
    const q: QueryRecord = {
      id: 1,
      fullName: 'A',
      email: 'a@example.test',
      subject: 's',
      message: 'm',
      status: 'in-progress',
      response: 'r',
      replies: [{ id: 'ev-1', status: 'in-progress', response: 'r', byUserId: 1, at }],
      createdAt: at,
      updatedAt: at,
    };
    expect(replyOf(q, 'ev-1')?.response).toBe('r');
    expect(replyOf(q, 'ev-2')).toBeUndefined();
  });
});

describe('contact and reply bodies', () => {
  const valid = {
    fullName: 'Asha Rao',
    email: 'asha@example.test',
    subject: 'Order',
    message: 'Where is it?',
  };
  const problem = (body: unknown) => {
    const parsed = ContactBody.safeParse(body);
    return parsed.success ? undefined : parsed.error.issues[0]?.message;
  };

  it('accepts a full form and trims it', () => {
    expect(ContactBody.parse({ ...valid, fullName: '  Asha Rao ' }).fullName).toBe('Asha Rao');
  });

  it('refuses blank or missing fields with their messages', () => {
    expect(problem({ ...valid, fullName: '   ' })).toBe(MSG.fullNameRequired);
    expect(problem({ ...valid, subject: undefined })).toBe(MSG.subjectRequired);
    expect(problem({ ...valid, message: '' })).toBe(MSG.messageRequired);
    expect(problem({ ...valid, email: 'not-an-address' })).toBe(MSG.emailInvalid);
  });

  it('bounds every length', () => {
    expect(problem({ ...valid, fullName: 'x'.repeat(SUPPORT_LIMITS.fullNameMax + 1) })).toBe(
      MSG.fullNameTooLong,
    );
    expect(problem({ ...valid, subject: 'x'.repeat(SUPPORT_LIMITS.subjectMax + 1) })).toBe(
      MSG.subjectTooLong,
    );
    expect(problem({ ...valid, message: 'x'.repeat(SUPPORT_LIMITS.messageMax + 1) })).toBe(
      MSG.messageTooLong,
    );
    expect(problem({ ...valid, message: 'x'.repeat(SUPPORT_LIMITS.messageMax) })).toBeUndefined();
  });

  it('a reply needs a non-blank response and a reply status', () => {
    expect(
      UpdateQueryStatusBody.safeParse({ status: 'resolved', response: '  ' }).error?.issues[0]?.message,
    ).toBe(MSG.responseRequired);
    expect(
      UpdateQueryStatusBody.safeParse({ status: 'pending', response: 'ok' }).error?.issues[0]?.message,
    ).toBe(MSG.statusInvalid);
    expect(UpdateQueryStatusBody.parse({ status: 'in-progress', response: ' ok ' }).response).toBe('ok');
  });
});
