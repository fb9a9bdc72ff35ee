import { userInitials } from '../src/user';

describe('userInitials', () => {
  it("takes the name's initials, as the profile does, wherever the avatar is drawn", () => {
    expect(userInitials({ username: 'tomar_o', firstName: 'Vikram', lastName: 'Rao' })).toBe('VR');
    expect(userInitials({ username: 'tomar_o', firstName: ' vikram ', lastName: '' })).toBe('V');
  });

  it('falls back to the username when no name is known', () => {
    expect(userInitials({ username: 'tomar_o', firstName: '' })).toBe('TO');
  });
});
