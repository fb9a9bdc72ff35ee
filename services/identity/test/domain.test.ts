import { identityV1 } from '@qm/contracts/grpc';
import { AppError, GrpcStatus } from '@qm/platform';
import {
  assertMaySend,
  assertUsable,
  codeMatches,
  generateCode,
  isDead,
  issueCode,
  mayResetPassword,
  wrongCode,
} from '../src/domain/otp';
import {
  assertPortal,
  availability,
  decide,
  planProfileUpdate,
  statusGate,
  type UserRecord,
  viewFor,
} from '../src/domain/users';
import { usernameProblem } from '../src/app/accounts';
import { profileFromProto } from '../src/server';

const t0 = new Date('2026-11-22T10:00:00Z');
const at = (ms: number) => new Date(t0.getTime() + ms);
const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return [(err as AppError).code, (err as AppError).message];
  }
  return undefined;
};

const user = (over: Partial<UserRecord> = {}): UserRecord => ({
  id: 5,
  username: 'Sepoy',
  usernameKey: 'sepoy',
  email: 'sepoy@example.test',
  emailKey: 'sepoy@example.test',
  firstName: 'Ravi',
  lastName: 'Kumar',
  phoneNumber: '',
  role: 'Army',
  status: 'approved',
  isAdmin: false,
  createdAt: t0,
  updatedAt: t0,
  ...over,
});

describe('one-time codes', () => {
  it('are 6 digits', () => {
    for (let i = 0; i < 200; i++) expect(generateCode()).toMatch(/^\d{6}$/);
  });

  it('are stored hashed and compared against the hash', async () => {
    const { code, record } = await issueCode(1, 'reset', t0);
    expect(record.codeHash).not.toContain(code);
    expect(await codeMatches(record, code)).toBe(true);
    expect(await codeMatches(record, code === '123456' ? '654321' : '123456')).toBe(false);
  });

  it('expire after 10 minutes', async () => {
    const { record } = await issueCode(1, 'reset', t0);
    expect(codeOf(() => assertUsable(record, at(10 * 60_000)))).toBeUndefined();
    expect(codeOf(() => assertUsable(record, at(10 * 60_000 + 1)))).toEqual([
      GrpcStatus.INVALID_ARGUMENT,
      'OTP has expired. Please request a new OTP.',
    ]);
  });

  it('are void after 5 wrong tries', async () => {
    const { record } = await issueCode(1, 'reset', t0);
    expect(wrongCode(1).message).toBe('Invalid OTP. 4 attempts left.');
    expect(wrongCode(4).message).toBe('Invalid OTP. 1 attempt left.');
    expect(wrongCode(5).code).toBe(GrpcStatus.RESOURCE_EXHAUSTED);
    expect(codeOf(() => assertUsable({ ...record, attempts: 5 }, t0))?.[0]).toBe(
      GrpcStatus.RESOURCE_EXHAUSTED,
    );
  });

  it('may be resent after 30 seconds only', () => {
    expect(codeOf(() => assertMaySend({ sentAt: t0 }, at(29_001)))).toEqual([
      GrpcStatus.RESOURCE_EXHAUSTED,
      'Please wait 1 second before requesting a new OTP.',
    ]);
    expect(codeOf(() => assertMaySend({ sentAt: t0 }, at(30_000)))).toBeUndefined();
    expect(codeOf(() => assertMaySend(null, t0))).toBeUndefined();
  });

  it('allow a reset within 10 minutes of verification', async () => {
    const { record } = await issueCode(1, 'reset', t0);
    expect(mayResetPassword(record, t0)).toBe(false);
    const verified = { ...record, verifiedAt: at(60_000) };
    expect(mayResetPassword(verified, at(11 * 60_000))).toBe(true);
    expect(mayResetPassword(verified, at(11 * 60_000 + 1))).toBe(false);
    expect(isDead(verified, at(10 * 60_000 + 1))).toBe(false);
    expect(isDead(verified, at(11 * 60_000 + 1))).toBe(true);
  });
});

describe('user rules', () => {
  it('reports availability with the screen texts', () => {
    expect(availability(usernameProblem('Admin'), false)).toEqual({
      isAvailable: false,
      message: 'This username is reserved',
    });
    expect(availability(usernameProblem('newbie'), true)).toEqual({
      isAvailable: false,
      message: 'Username is already taken',
    });
    expect(availability(usernameProblem('newbie'), false)).toEqual({
      isAvailable: true,
      message: 'Username is available',
    });
  });

  it('decides only pending users; a rejection needs a reason', () => {
    expect(codeOf(() => decide(user({ status: 'pending' }), 'rejected', '  '))).toEqual([
      GrpcStatus.INVALID_ARGUMENT,
      'Rejection reason is required',
    ]);
    expect(codeOf(() => decide(user({ status: 'approved' }), 'approved', ''))?.[0]).toBe(
      GrpcStatus.FAILED_PRECONDITION,
    );
    expect(decide(user({ status: 'pending' }), 'rejected', ' bad docs ')).toEqual({
      status: 'rejected',
      rejectionReason: 'bad docs',
    });
  });

  it('gates pending and rejected sign-ins with the words the screens look for', () => {
    expect(statusGate(user({ status: 'pending' }))?.message).toContain('pending approval');
    expect(statusGate(user({ status: 'rejected', rejectionReason: 'x' }))?.message).toContain('rejected');
    expect(statusGate(user())).toBeUndefined();
  });

  it('keeps administrators to /admin and everyone else to /auth', () => {
    const admin = user({ role: 'Admin', isAdmin: true });
    expect(codeOf(() => assertPortal(user(), 'admin'))).toEqual([
      GrpcStatus.PERMISSION_DENIED,
      'Normal user logins are not allowed in the admin portal. Please use the regular login page.',
    ]);
    expect(codeOf(() => assertPortal(admin, 'user'))?.[0]).toBe(GrpcStatus.PERMISSION_DENIED);
    expect(codeOf(() => assertPortal(admin, 'admin'))).toBeUndefined();
  });

  it('plans profile updates: manufacturer-only fields, clearing, validation', () => {
    const req = (r: identityV1.UpdateProfileRequest) => profileFromProto(r);
    expect(codeOf(() => planProfileUpdate(user(), req({ licenseNumber: 'MFG-1' })))?.[0]).toBe(
      GrpcStatus.PERMISSION_DENIED,
    );
    expect(planProfileUpdate(user(), req({ licenseNumber: '', bio: 'hi' })).set).toEqual({ bio: 'hi' });
    const maker = user({ role: 'Manufacturer' });
    expect(planProfileUpdate(maker, req({ yearsOfExperience: { value: 4 } })).set).toEqual({
      yearsOfExperience: 4,
    });
    expect(planProfileUpdate(maker, req({ yearsOfExperience: {}, address: '' })).unset.sort()).toEqual([
      'address',
      'yearsOfExperience',
    ]);
    expect(codeOf(() => planProfileUpdate(maker, req({ yearsOfExperience: { value: -1 } })))).toEqual([
      GrpcStatus.INVALID_ARGUMENT,
      'Years of experience must be at least 0',
    ]);
    expect(planProfileUpdate(user(), req({ email: ' New@Example.test ' })).set).toEqual({
      email: 'New@Example.test',
      emailKey: 'new@example.test',
    });
  });

  it('shows others only an approved manufacturer card', () => {
    const army = { userId: 9, roles: ['Army' as const] };
    expect(viewFor(user({ role: 'Manufacturer' }), army).kind).toBe('card');
    expect(viewFor(user({ role: 'Manufacturer', status: 'pending' }), army).kind).toBe('hidden');
    expect(viewFor(user(), army).kind).toBe('hidden');
    expect(viewFor(user(), { userId: 5, roles: ['Army'] }).kind).toBe('user');
    expect(viewFor(user(), { userId: 1, roles: ['Admin'] }).kind).toBe('user');
  });
});
