import { ProfileUpdateBody, RegisterBody } from '../src/rest';

/** Keycloak's person-name validator refuses control characters; we must refuse them first (a 400 with our message). */
describe('person names', () => {
  const register = {
    username: 'kavya',
    password: 'Str0ng-pass',
    confirmPassword: 'Str0ng-pass',
    email: 'kavya@example.test',
    firstName: 'Kavya',
    lastName: 'Rao',
  };

  it('refuses control characters in names', () => {
    const out = RegisterBody.safeParse({ ...register, lastName: '°S\b' });
    expect(out.error?.issues[0]?.message).toBe('Last name contains characters that are not allowed');
    expect(ProfileUpdateBody.safeParse({ firstName: 'A\u0007' }).success).toBe(false);
  });

  it('still takes letters of any script', () => {
    expect(RegisterBody.safeParse({ ...register, lastName: 'Müller-Ærø' }).success).toBe(true);
    expect(ProfileUpdateBody.safeParse({ firstName: 'अर्जुन' }).success).toBe(true);
  });
});
