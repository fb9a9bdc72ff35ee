import { notifications } from '@mantine/notifications';
import type { LoginResponse } from '@qm/contracts/rest';
import { ApiError, CURRENT_USER_QUERY_KEY, currentUserQueryOptions, toast } from '@qm/ui';
import type { QueryClient } from '@tanstack/react-query';
import type { NavigateFunction } from 'react-router-dom';

export type Portal = 'user' | 'admin';

/** What a sign-in attempt (password or SSO) led to, as the screens need it. */
export type SignInOutcome =
  | { kind: 'success'; response: LoginResponse }
  | { kind: 'pending'; message: string }
  | { kind: 'rejected'; message: string }
  | { kind: 'access_denied'; message: string };

/**
 * A successful answer may still be a refusal: pending and rejected accounts get 200 with that status
 * (docs/product.md §4 detects them from the words "pending approval" / "rejected" in the message, or the status).
 */
export function outcomeOf(response: LoginResponse): SignInOutcome {
  const message = response.message ?? '';
  if (response.status === 'pending' || /pending approval/i.test(message)) return { kind: 'pending', message };
  if (response.status === 'rejected' || (response.status !== 'success' && /rejected/i.test(message)))
    return { kind: 'rejected', message };
  if (response.status === 'access_denied') return { kind: 'access_denied', message };
  return { kind: 'success', response };
}

/** The `status` of a refused sign-in's JSON body (pending, rejected, access_denied), if any. */
function statusOf(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object' && 'status' in parsed && typeof parsed.status === 'string')
      return parsed.status;
  } catch {
    // not JSON
  }
  return undefined;
}

/** The same reading for a refused call: 403 is the portal rule, the words pick the approval dialogs. */
export function outcomeOfError(error: unknown): SignInOutcome | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const message = error.serverMessage ?? '';
  const status = statusOf(error.body);
  if (status === 'pending' || status === 'rejected' || status === 'access_denied')
    return { kind: status, message };
  if (/pending approval/i.test(message)) return { kind: 'pending', message };
  if (/rejected/i.test(message)) return { kind: 'rejected', message };
  if (error.status === 403 && !/cross-site/i.test(message)) return { kind: 'access_denied', message };
  return undefined;
}

/** docs/product.md §8 "Login failure": the server's message, else the fallbacks by cause. */
export function loginFailureMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.serverMessage) return error.serverMessage;
    if (error.status === 401) return 'Invalid username or password';
    return `Login failed with status: ${error.status}`;
  }
  return 'Authentication failed. Please try again.';
}

export function showLoginFailure(error: unknown) {
  notifications.show({ color: 'red', title: 'Login failed', message: loginFailureMessage(error) });
}

/** Only a path of this site: never follow a redirect to another origin. */
function safeTarget(redirectTo: string | undefined): string | undefined {
  if (!redirectTo || !redirectTo.startsWith('/') || redirectTo.startsWith('//') || redirectTo.includes('\\'))
    return undefined;
  return redirectTo;
}

/** Login redirect (docs/product.md §2): redirectTo first, else admins to the dashboard and everyone else to the wallet. */
export function loginTarget(response: LoginResponse): string {
  return safeTarget(response.redirectTo) ?? (response.isAdmin ? '/admin/dashboard' : '/wallet');
}

/**
 * After a successful sign-in (docs/product.md §4): clear every cached answer, refetch the user, go to the target and
 * say so. The login activity itself is recorded by the server with the session it opened.
 */
export async function completeSignIn(
  queryClient: QueryClient,
  navigate: NavigateFunction,
  response: LoginResponse,
): Promise<void> {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== CURRENT_USER_QUERY_KEY[0] });
  let refreshed = false;
  try {
    refreshed = (await queryClient.fetchQuery({ ...currentUserQueryOptions, staleTime: 0 })) !== null;
  } catch {
    refreshed = false;
  }
  // Raised before the move, as its announcement on the page it leads to.
  toast(
    {
      color: 'green',
      title: 'Login successful',
      message: refreshed ? 'Welcome back!' : 'Welcome back! Some user data may need to be refreshed.',
    },
    { nextPage: true },
  );
  await navigate(loginTarget(response), { replace: true });
}
