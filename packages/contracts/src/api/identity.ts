import { z } from 'zod';
import { idParam, NUMBER_LIMITS, pagingQuery } from './numbers';

/**
 * REST shapes of docs/product.md §7 for accounts, sessions, profiles and passwords, with the product reference's own
 * messages (§5). The gateway validates with the `*Body` schemas; the frontends' forms reuse the
 * `*Form` schemas (which add the confirmation fields the server does not need).
 */

export const REGISTRATION_ROLES = ['Army', 'Manufacturer'] as const;
export const USER_ROLES = ['Army', 'Navy', 'Airforce', 'Manufacturer', 'Admin'] as const;
export const USER_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type UserRole = (typeof USER_ROLES)[number];
export type UserStatusName = (typeof USER_STATUSES)[number];

/** Texts the server sends and the screens match on. */
export const IDENTITY_MESSAGES = {
  invalidCredentials: 'Invalid username or password',
  pendingApproval:
    'Your account is pending approval. An administrator will review your registration; you will receive an email once it is approved.',
  rejected: 'Your account registration has been rejected. Please contact support for more information.',
  /** The Access Denied dialog (docs/product.md §2), for a non-admin signing in at /admin. */
  accessDenied: 'Normal user logins are not allowed in the admin portal. Please use the regular login page.',
  /** An administrator signing in at /auth (the screen shows the Access Denied dialog). */
  adminMustUsePortal: 'Administrator accounts must sign in through the admin portal.',
  loginSuccessful: 'Login successful',
  registrationSuccessful:
    'Registration successful. Your request has been submitted for approval; please check your email for instructions.',
  usernameReserved: 'This username is reserved',
  usernameTaken: 'Username is already taken',
  usernameAvailable: 'Username is available',
  emailTaken: 'Email is already registered',
  passwordChanged: 'Password changed successfully',
  newPasswordMustDiffer: 'New password must be different from current password',
  currentPasswordIncorrect: 'Current password is incorrect',
  statusUpdated: 'User status has been updated',
  /** PATCH /api/user/profile with another email: that change goes through the email-change steps. */
  emailChangeNeedsConfirmation:
    'Changing your email needs your current password and a code sent to the new address.',
  emailUnchanged: 'That is already your email address',
  emailChanged: 'Your email address has been changed',
  emailCodeSent: (email: string) => `We sent a code to ${email}. Enter it to confirm your new email.`,
} as const;

// ---------------------------------------------------------------------------------------------
// SQL-looking input (docs/product.md §5): sign-in and registration refuse it ("Invalid password format"; the
// sign-in screen opens the "Hey SQL Injector" dialog); the admin portal has a stricter list.

/** Patterns of an injection attempt; ordinary passwords with symbols do not match. */
export const SQL_LIKE_PATTERNS: readonly RegExp[] = [
  /['"]\s*(or|and)\s+['"]?\w*['"]?\s*(=|<|>|like\b)/i, // ' OR '1'='1
  /['"]\s*(or|and)\s+\d+\s*(=|<|>)/i,
  /['"]\s*(--|#|\/\*)/, // quote then comment
  /\bunion\b[\s\S]*\bselect\b/i,
  /\bselect\b[\s\S]+\bfrom\b/i,
  /\b(insert\s+into|delete\s+from|drop\s+(table|database)|truncate\s+table|alter\s+table)\b/i,
  /\bupdate\s+\w+\s+set\b/i,
  /;\s*(select|insert|update|delete|drop|alter|create|truncate|exec|shutdown)\b/i,
  /\b(sleep|benchmark)\s*\(\s*\d/i,
  /\bwaitfor\s+delay\b/i,
  /\bexec(ute)?\s+(xp_|sp_)\w*/i,
];

/** The admin portal's stricter list ("SQL injection detected"): any quote, separator, comment or SQL keyword. */
export const STRICT_SQL_PATTERNS: readonly RegExp[] = [
  ...SQL_LIKE_PATTERNS,
  /['"`;]/,
  /--|\/\*|\*\//,
  /\b(select|insert|update|delete|drop|union|alter|create|truncate|exec|execute|declare|grant|revoke)\b/i,
  /\b(or|and)\b\s+\S+\s*=/i,
];

export const looksLikeSql = (text: string) => SQL_LIKE_PATTERNS.some((p) => p.test(text));
export const looksLikeSqlStrict = (text: string) => STRICT_SQL_PATTERNS.some((p) => p.test(text));

// ---------------------------------------------------------------------------------------------
// Field schemas

/** Trimmed, `admin` in any letter case reserved; letters, digits, dot, hyphen, underscore. */
export const UsernameSchema = z
  .string({ error: 'Username is required' })
  .trim()
  .min(1, 'Username is required')
  .refine((v) => v.toLowerCase() !== 'admin', IDENTITY_MESSAGES.usernameReserved)
  .min(3, 'Username must be at least 3 characters')
  .max(50, 'Username must be at most 50 characters')
  .regex(/^[A-Za-z0-9._-]*$/, 'Username may contain only letters, digits, dots, hyphens and underscores');

export const PasswordSchema = z
  .string({ error: 'Password must be at least 6 characters' })
  .min(6, 'Password must be at least 6 characters')
  .max(128, 'Password must be at most 128 characters')
  .refine((v) => !looksLikeSql(v), 'Invalid password format');

export const NewPasswordSchema = z
  .string({ error: 'New password must be at least 6 characters' })
  .min(6, 'New password must be at least 6 characters')
  .max(128, 'New password must be at most 128 characters')
  .refine((v) => !looksLikeSql(v), 'Invalid password format');

export const EmailSchema = z
  .string({ error: 'Invalid email address' })
  .trim()
  .max(254, 'Invalid email address')
  // zod's own address pattern, as a pattern only: the document states exactly this rule (with
  // `format: email` too, a client or fuzzer whose notion of an address is stricter, e.g. no
  // apostrophe, would call addresses invalid that the server rightly accepts).
  .regex(z.regexes.email, 'Invalid email address');

// Keycloak refuses these characters in names, and control characters (its person-name validator).
// eslint-disable-next-line no-control-regex
const NAME_CHARS = /^[^<>&"$%!#?§;*~/\\|^=[\]{}()\x00-\x1f\x7f]*$/;
const nameSchema = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(100, `${label} must be at most 100 characters`)
    .regex(NAME_CHARS, `${label} contains characters that are not allowed`);

export const OtpSchema = z
  .string({ error: 'OTP must be 6 digits' })
  .trim()
  .regex(/^\d{6}$/, 'OTP must be 6 digits');

const EmailOrUsernameSchema = z
  .string({ error: 'Email or username is required' })
  .trim()
  .min(1, 'Email or username is required')
  .max(254, 'Email or username is too long');

// ---------------------------------------------------------------------------------------------
// Sign-in

export const LOGIN_PORTALS = ['user', 'admin'] as const;

/** The /auth sign-in form. */
export const SignInForm = z.object({
  username: z.string({ error: 'Username is required' }).trim().min(1, 'Username is required'),
  password: PasswordSchema,
});

/** The /admin sign-in form. */
export const AdminLoginForm = z
  .object({
    username: z.string({ error: 'Username is required' }).trim().min(1, 'Username is required'),
    password: z.string({ error: 'Password is required' }).min(1, 'Password is required'),
  })
  .refine((v) => !looksLikeSqlStrict(v.username) && !looksLikeSqlStrict(v.password), {
    message: 'SQL injection detected',
    path: ['password'],
  });

/**
 * POST /api/login. `portal` says which screen signs in: "user" (/auth, the default) refuses
 * administrators, "admin" (/admin) accepts administrators only. Each portal applies its screen's rules.
 */
export const LoginBody = z
  .object({
    username: z
      .string({ error: 'Username is required' })
      .trim()
      .min(1, 'Username is required')
      .max(100, 'Username is too long'),
    password: z
      .string({ error: 'Password is required' })
      .min(1, 'Password is required')
      .max(128, 'Password is too long'),
    portal: z
      .enum(LOGIN_PORTALS, { error: 'Portal must be "user" or "admin"' })
      .default('user')
      .describe('"user" for /auth (default), "admin" for the admin portal /admin'),
  })
  .superRefine((v, ctx) => {
    if (v.portal === 'admin') {
      if (looksLikeSqlStrict(v.username) || looksLikeSqlStrict(v.password))
        ctx.addIssue({ code: 'custom', path: ['password'], message: 'SQL injection detected' });
      return;
    }
    if (v.password.length < 6)
      ctx.addIssue({ code: 'custom', path: ['password'], message: 'Password must be at least 6 characters' });
    else if (looksLikeSql(v.password))
      ctx.addIssue({ code: 'custom', path: ['password'], message: 'Invalid password format' });
  })
  // The length rule above, in the OpenAPI document: at least 6 characters unless portal is "admin".
  .meta({
    anyOf: [
      { properties: { portal: { const: 'admin' } }, required: ['portal'] },
      { properties: { password: { minLength: 6 } } },
    ],
  });
export type LoginInput = z.input<typeof LoginBody>;

/** POST /api/auth/sso: the tokens keycloak-js obtained with the web client (authorization code + PKCE). */
export const SsoLoginBody = z.object({
  accessToken: z.string({ error: 'accessToken is required' }).min(20, 'accessToken is required').max(16384),
  refreshToken: z
    .string({ error: 'refreshToken is required' })
    .min(20, 'refreshToken is required')
    .max(16384),
  portal: z.enum(LOGIN_PORTALS, { error: 'Portal must be "user" or "admin"' }).default('user'),
});

export const LOGIN_STATUSES = ['success', 'pending', 'rejected', 'access_denied'] as const;

// ---------------------------------------------------------------------------------------------
// Users

export const UserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  phoneNumber: z.string(),
  role: z.enum(USER_ROLES),
  status: z.enum(USER_STATUSES),
  isAdmin: z.boolean(),
  address: z.string().nullable(),
  bio: z.string().nullable(),
  licenseNumber: z.string().nullable(),
  yearsOfExperience: z.number().int().nullable(),
  rank: z.string().nullable(),
  barretNumber: z.string().nullable(),
  division: z.string().nullable(),
  specialization: z.string().nullable(),
  serviceYears: z.number().int().nullable(),
  rejectionReason: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type User = z.infer<typeof UserSchema>;

/** GET /api/admin/users: one page of the matching users and how many match. */
export interface AdminUsersPage {
  users: User[];
  total: number;
  page: number;
  pageSize: number;
}

/** What a product card shows of its manufacturer: all a non-admin gets from GET /api/users/{id}. */
export const UserCardSchema = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  yearsOfExperience: z.number().int().nullable(),
  licenseNumber: z.string().nullable(),
});
export type UserCard = z.infer<typeof UserCardSchema>;

export const LoginResponseSchema = z.object({
  status: z.enum(LOGIN_STATUSES),
  message: z.string(),
  redirectTo: z.string().optional(),
  isAdmin: z.boolean().optional(),
  user: UserSchema.optional(),
});
export type LoginResponse = z.infer<typeof LoginResponseSchema>;

/** Registration form and POST /api/register body (docs/product.md §5). */
export const RegisterBody = z
  .object({
    username: UsernameSchema,
    password: PasswordSchema,
    confirmPassword: z.string({ error: "Passwords don't match" }),
    email: EmailSchema,
    firstName: nameSchema('First name'),
    lastName: nameSchema('Last name'),
    phoneNumber: z.string().trim().max(30, 'Phone number must be at most 30 characters').default(''),
    role: z.enum(REGISTRATION_ROLES, { error: 'Role must be Army or Manufacturer' }).default('Army'),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  });
export const RegisterForm = RegisterBody;
export type RegisterInput = z.input<typeof RegisterBody>;

export const RegisterResponseSchema = z.object({ message: z.string(), user: UserSchema });

export const CheckUsernameParams = z.object({
  username: z.string().max(100, 'Username is too long'),
});
export const CheckUsernameResponseSchema = z.object({ isAvailable: z.boolean(), message: z.string() });

export const UserIdParams = z.object({ id: idParam('User id') });

/** GET /api/admin/users: the administrators' user list, searched, filtered and paged by the server. */
export const AdminUsersQuery = z.object({
  search: z
    .string()
    .trim()
    .max(100, 'Search must be at most 100 characters')
    .optional()
    .describe('Case-insensitive part of the username, first name, last name or email'),
  status: z.enum(USER_STATUSES, { error: 'Status must be pending, approved or rejected' }).optional(),
  role: z.enum(USER_ROLES, { error: `Role must be one of ${USER_ROLES.join(', ')}` }).optional(),
  ...pagingQuery(NUMBER_LIMITS.pageSizeMax),
});
export type AdminUsersQuery = z.infer<typeof AdminUsersQuery>;
export const UserStatusParams = z.object({ userId: idParam('User id') });

/** PATCH /api/users/{userId}/status: only pending users; rejection needs a reason (non-empty after trimming). */
export const UpdateUserStatusBody = z
  .object({
    status: z.enum(['approved', 'rejected'], { error: 'Status must be approved or rejected' }),
    rejectionReason: z
      .string()
      .trim()
      .max(1000, 'Rejection reason must be at most 1000 characters')
      .nullish()
      .transform((v) => v ?? ''),
  })
  .refine((v) => v.status !== 'rejected' || v.rejectionReason.length > 0, {
    message: 'Rejection reason is required',
    path: ['rejectionReason'],
  })
  .meta({
    anyOf: [
      { properties: { status: { const: 'approved' } } },
      { required: ['rejectionReason'], properties: { rejectionReason: { type: 'string', pattern: '\\S' } } },
    ],
  });

export const UpdateUserStatusResponseSchema = z.object({ message: z.string(), user: UserSchema });

// ---------------------------------------------------------------------------------------------
// Profile

const optionalText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .nullish();

/** Whole number ≥ 0; empty text or null clears it (sent as null), absent leaves it unchanged. */
const optionalCount = (label: string) =>
  z
    .preprocess(
      (v) => (v === '' ? null : typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
      z
        .number({ error: `${label} must be a whole number` })
        .int(`${label} must be a whole number`)
        .min(0, `${label} must be at least 0`)
        .max(100, `${label} must be at most 100`)
        .nullable(),
    )
    .optional();

const profileFields = {
  firstName: nameSchema('First name'),
  lastName: nameSchema('Last name'),
  email: EmailSchema,
  phoneNumber: optionalText('Phone number', 30),
  address: optionalText('Address', 500),
  bio: optionalText('Bio', 2000),
  /** Manufacturers only; e.g. MFG-1234-5678. */
  licenseNumber: optionalText('License number', 50),
  /** Manufacturers only. */
  yearsOfExperience: optionalCount('Years of experience'),
  rank: optionalText('Rank', 100),
  barretNumber: optionalText('Barret number', 100),
  division: optionalText('Division', 100),
  specialization: optionalText('Specialization', 100),
  serviceYears: optionalCount('Service years'),
};

/** The /profile form: names and email required, the rest optional. */
export const ProfileForm = z.object(profileFields);

/**
 * PATCH /api/user/profile: fields present change (null or "" clears an optional one). Only a
 * Manufacturer may set licenseNumber and yearsOfExperience.
 */
export const ProfileUpdateBody = z.object({
  ...profileFields,
  firstName: profileFields.firstName.optional(),
  lastName: profileFields.lastName.optional(),
  email: profileFields.email.optional(),
});
export type ProfileUpdateInput = z.input<typeof ProfileUpdateBody>;

// POST /api/user/activity: RecordActivityBody in ./activity (client-side actions only).

// ---------------------------------------------------------------------------------------------
// Forgot password (three steps) and password change (signed in)

export const RequestPasswordResetBody = z.object({ emailOrUsername: EmailOrUsernameSchema });
export const VerifyPasswordResetOtpBody = z.object({
  emailOrUsername: EmailOrUsernameSchema,
  otp: OtpSchema,
});
export const ResetPasswordBody = z
  .object({
    emailOrUsername: EmailOrUsernameSchema,
    password: PasswordSchema,
    confirmPassword: z.string().optional(),
  })
  .refine((v) => v.confirmPassword === undefined || v.confirmPassword === v.password, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  });
/** Step 3 of /forgot-password. */
export const ResetPasswordForm = z
  .object({ password: PasswordSchema, confirmPassword: z.string() })
  .refine((v) => v.confirmPassword === v.password, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  });

export const VerifyCurrentPasswordBody = z.object({
  currentPassword: z
    .string({ error: 'Current password is required' })
    .min(1, 'Current password is required')
    .max(128, 'Current password is too long'),
});

/**
 * POST /api/user/verify-password-otp. With `otp` only it checks the code; with `newPassword` it
 * changes the password (the current password either sent here or verified through
 * /api/user/verify-current-password in the last 10 minutes).
 */
export const VerifyPasswordOtpBody = z
  .object({
    otp: OtpSchema,
    newPassword: NewPasswordSchema.optional(),
    currentPassword: z.string().min(1, 'Current password is required').max(128).optional(),
  })
  .refine((v) => !v.newPassword || !v.currentPassword || v.newPassword !== v.currentPassword, {
    message: IDENTITY_MESSAGES.newPasswordMustDiffer,
    path: ['newPassword'],
  });

/** Step 2 of the Change Password dialog. */
export const ChangePasswordForm = z
  .object({
    currentPassword: z.string().min(1, 'Current password is required'),
    newPassword: NewPasswordSchema,
    confirmNewPassword: z.string().min(1, "New passwords don't match"),
  })
  .refine((v) => v.newPassword === v.confirmNewPassword, {
    message: "New passwords don't match",
    path: ['confirmNewPassword'],
  })
  .refine((v) => v.newPassword !== v.currentPassword, {
    message: IDENTITY_MESSAGES.newPasswordMustDiffer,
    path: ['newPassword'],
  });

// ---------------------------------------------------------------------------------------------
// Email change (signed in): the current password, then a code sent to the new address.

export const EmailChangeBody = z.object({
  newEmail: EmailSchema,
  currentPassword: VerifyCurrentPasswordBody.shape.currentPassword,
});
export const ConfirmEmailChangeBody = z.object({ otp: OtpSchema });

export const IdentityMessageSchema = z.object({ message: z.string() });
export const OtpSentSchema = z.object({ message: z.string(), resendAfterSeconds: z.number().int() });
export const VerifyCurrentPasswordResponseSchema = z.object({ valid: z.boolean(), message: z.string() });
export const VerifyPasswordOtpResponseSchema = z.object({ changed: z.boolean(), message: z.string() });
export const EmailChangedSchema = z.object({ message: z.string(), user: UserSchema });

/** GET /api/auth/config: what keycloak-js needs for "Sign in with SSO". */
export const AuthConfigSchema = z.object({
  url: z.string().describe('Keycloak base URL as the browser reaches it'),
  realm: z.string(),
  clientId: z.string(),
});
