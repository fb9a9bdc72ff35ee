/** Activity actions (spec §3 "Activity action values") this service records and their details. */

export const ACTIONS = {
  login: 'login',
  logout: 'logout',
  failedLogin: 'failed_login',
  profileView: 'profile_view',
  profileUpdate: 'profile_update',
  passwordChange: 'password_change',
  passwordResetRequest: 'password_reset_request',
  passwordChangeOtpRequested: 'password_change_otp_requested',
} as const;

/**
 * Actions the service records itself, from the server side of the event. A client reporting one
 * of them through POST /api/user/activity is not recorded twice (nor can it forge one).
 */
export const SERVER_RECORDED: ReadonlySet<string> = new Set([
  ACTIONS.login,
  ACTIONS.logout,
  ACTIONS.failedLogin,
  ACTIONS.profileUpdate,
  ACTIONS.passwordChange,
  ACTIONS.passwordResetRequest,
  ACTIONS.passwordChangeOtpRequested,
]);

const ACTION_NAME = /^[a-z][a-z0-9_]{1,63}$/;

export function isValidAction(action: string): boolean {
  return ACTION_NAME.test(action);
}

/** The browser, shortened to what fits an activity line. */
export function browserOf(userAgent: string): string {
  const ua = userAgent.trim();
  if (!ua) return 'unknown';
  return ua.length > 300 ? `${ua.slice(0, 300)}...` : ua;
}

export const DETAILS = {
  login: (portal: 'user' | 'admin', sso: boolean) =>
    `Logged in${sso ? ' with SSO' : ''}${portal === 'admin' ? ' to the admin portal' : ''}`,
  logout: 'Logged out',
  failedLogin: (error: string, userAgent: string) => `Error: ${error}; Browser: ${browserOf(userAgent)}`,
  profileUpdate: (fields: string[]) => `Updated profile fields: ${fields.join(', ') || 'none'}`,
  passwordChange: 'Password changed successfully',
  passwordReset: 'Password reset with a one-time code',
  passwordResetRequest: 'Password reset OTP requested',
  passwordChangeOtpRequested: 'Password change OTP requested',
} as const;
