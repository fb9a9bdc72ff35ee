import type { LoginResponse } from '@qm/contracts/rest';
import { apiFetch } from '@qm/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  completeSignIn,
  outcomeOf,
  outcomeOfError,
  showLoginFailure,
  type Portal,
  type SignInOutcome,
} from './signIn';

export type Credentials = {
  username: string;
  password: string;
};

/** The dialog a refused sign-in opens (none while closed). */
export type SignInDialog = Exclude<SignInOutcome['kind'], 'success'> | null;

/**
 * POST /api/login for one portal ("user" on /auth, "admin" on /admin). Success finishes the sign-in;
 * pending, rejected and portal refusals open their dialog; anything else is a "Login failed" toast.
 */
export function useLogin(portal: Portal) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<{ kind: SignInDialog; message: string }>({ kind: null, message: '' });

  const openDialog = useCallback(
    (outcome: Exclude<SignInOutcome, { kind: 'success' }>) =>
      setDialog({ kind: outcome.kind, message: outcome.message }),
    [],
  );
  const closeDialog = useCallback(() => setDialog({ kind: null, message: '' }), []);

  const mutation = useMutation({
    mutationFn: (credentials: Credentials) =>
      apiFetch<LoginResponse>('/api/login', { method: 'POST', body: { ...credentials, portal } }),
    // Never repeated: Keycloak locks an account after two failed attempts within a second.
    retry: false,
    onSuccess: async (response) => {
      const outcome = outcomeOf(response);
      if (outcome.kind === 'success') await completeSignIn(queryClient, navigate, response);
      else openDialog(outcome);
    },
    onError: (error) => {
      const outcome = outcomeOfError(error);
      if (outcome && outcome.kind !== 'success') openDialog(outcome);
      else showLoginFailure(error);
    },
  });

  return {
    login: mutation.mutate,
    isPending: mutation.isPending,
    /** True from the request until the page has moved on: the "already signed in" redirect waits. */
    isSigningIn: mutation.isPending || (mutation.isSuccess && outcomeOf(mutation.data).kind === 'success'),
    dialog: dialog.kind,
    dialogMessage: dialog.message,
    closeDialog,
    openDialog,
  };
}
