/** Activity actions (docs/product.md §3 "Activity action values") this service records and their details. */

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
