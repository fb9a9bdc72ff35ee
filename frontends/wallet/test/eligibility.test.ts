import { eligibilityOf } from '../src/transfer/eligibility';

const answer = (eligible: boolean, message: string) => ({
  isFetching: false,
  isError: false,
  data: { eligible, message },
});
const none = { isFetching: false, isError: false, data: undefined };

describe('eligibilityOf', () => {
  it('is idle for an empty receiver', () => {
    expect(eligibilityOf('  ', '', none)).toEqual({ state: 'idle' });
  });

  it('is checking until the debounced name catches up with what is typed', () => {
    // The answer on screen is about "bo", the user has typed "bob": it must not show as bob's.
    expect(eligibilityOf('bob', 'bo', answer(true, 'ok'))).toEqual({ state: 'checking' });
    expect(eligibilityOf('bob', 'bob', { ...answer(true, 'ok'), isFetching: true })).toEqual({
      state: 'checking',
    });
  });

  it("shows the server's answer for the typed name", () => {
    expect(eligibilityOf(' bob ', 'bob', answer(true, 'User is eligible'))).toEqual({
      state: 'eligible',
      message: 'User is eligible',
    });
    expect(eligibilityOf('ghost', 'ghost', answer(false, 'User not found'))).toEqual({
      state: 'ineligible',
      message: 'User not found',
    });
    expect(eligibilityOf('ghost', 'ghost', answer(false, ''))).toEqual({
      state: 'ineligible',
      message: 'Selected user is not eligible for transfers',
    });
  });

  it('reports a failed check', () => {
    expect(eligibilityOf('bob', 'bob', { isFetching: false, isError: true, data: undefined }).state).toBe(
      'error',
    );
  });
});
