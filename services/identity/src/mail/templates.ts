import { mailMessage } from '@qm/platform';
/** The emails of docs/product.md §1, §4 and §8: decisions, one-time codes, password confirmations. */

export type { MailMessage } from '@qm/platform';
const message = mailMessage;

export interface Recipient {
  firstName: string;
  username: string;
}

export const mails = {
  registrationReceived: (u: Recipient) =>
    message('Your Quartermaster registration was received', [
      `Hello ${u.firstName},`,
      `We received your registration for the username "${u.username}". It is pending administrative approval, which typically takes 2-3 business days.`,
      'You will receive an email once your account is approved. After approval you can log in and use the platform.',
    ]),
  approved: (u: Recipient, loginUrl: string) =>
    message('Your Quartermaster account has been approved', [
      `Hello ${u.firstName},`,
      `Your account "${u.username}" has been approved. You can now log in: ${loginUrl}`,
    ]),
  rejected: (u: Recipient, reason: string) =>
    message('Your Quartermaster registration has been rejected', [
      `Hello ${u.firstName},`,
      `Your registration for the username "${u.username}" has been rejected.`,
      `Reason: ${reason}`,
      'If you believe this is a mistake, please contact support.',
    ]),
  passwordResetOtp: (u: Recipient, code: string) =>
    message('Your Quartermaster password reset code', [
      `Hello ${u.firstName},`,
      `Your one-time code to reset your password is: ${code}`,
      'It is valid for 10 minutes. If you did not ask for it, ignore this email; your password stays unchanged.',
    ]),
  passwordChangeOtp: (u: Recipient, code: string) =>
    message('Your Quartermaster password change code', [
      `Hello ${u.firstName},`,
      `Your one-time code to change your password is: ${code}`,
      'It is valid for 10 minutes. If you did not ask for it, please contact support.',
    ]),
  passwordChanged: (u: Recipient) =>
    message('Your Quartermaster password was changed', [
      `Hello ${u.firstName},`,
      'Your password has been changed successfully.',
      'If you did not do this, reset your password at once and contact support.',
    ]),
  passwordReset: (u: Recipient) =>
    message('Your Quartermaster password was reset', [
      `Hello ${u.firstName},`,
      'Your password has been reset with a one-time code. All your sessions were signed out.',
      'If you did not do this, contact support at once.',
    ]),
  /** To the new address: proves the user reads it before the change applies. */
  emailChangeOtp: (u: Recipient, code: string) =>
    message('Your Quartermaster email confirmation code', [
      `Hello ${u.firstName},`,
      `Your one-time code to confirm this address for the account "${u.username}" is: ${code}`,
      'It is valid for 10 minutes. If you did not ask for it, ignore this email.',
    ]),
  /** To the old address, when the change is asked for: the owner can still act before it applies. */
  emailChangeRequested: (u: Recipient, newEmail: string) =>
    message('Your Quartermaster email is about to change', [
      `Hello ${u.firstName},`,
      `Someone signed in as "${u.username}" asked to change the account's email to ${newEmail}.`,
      'If it was not you, change your password at once and contact support.',
    ]),
  /** To the old address, once the change has applied. */
  emailChanged: (u: Recipient, newEmail: string) =>
    message('Your Quartermaster email was changed', [
      `Hello ${u.firstName},`,
      `The email of your account "${u.username}" is now ${newEmail}. Mail no longer comes to this address.`,
      'If you did not do this, contact support at once.',
    ]),
};
