import { SUPPORT_MESSAGES as MSG } from '@qm/contracts/rest';
import { ApiError } from '@qm/ui';
import { submitErrorMessage } from '../src/pages/contactError';

const apiError = (status: number, message?: string) =>
  new ApiError(status, message === undefined ? '<html>Bad Gateway</html>' : JSON.stringify({ message }));

describe('submitErrorMessage (the contact form)', () => {
  it("shows the form's own messages as the server words them", () => {
    expect(submitErrorMessage(apiError(400, MSG.emailInvalid))).toBe(MSG.emailInvalid);
    expect(submitErrorMessage(apiError(429, MSG.tooManySubmissions))).toBe(MSG.tooManySubmissions);
  });

  it("replaces the gateway's own words with a message a visitor can act on", () => {
    for (const error of [
      apiError(403, 'Cross-site request refused'),
      apiError(500, 'Internal server error'),
      apiError(503, 'Service temporarily unavailable. Please try again shortly.'),
      apiError(400, 'Request body is not valid JSON'),
      apiError(502),
      new TypeError('Failed to fetch'),
    ])
      expect(submitErrorMessage(error)).toBe(MSG.submitUnavailable);
  });
});
