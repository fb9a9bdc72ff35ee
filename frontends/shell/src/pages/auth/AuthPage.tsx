import { Anchor, Card, Container, Stack, Text, Title } from '@mantine/core';
import { PageLoader, useCurrentUser } from '@qm/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { AccessDeniedDialog, AccountRejectedDialog, AccountUnderReviewDialog } from '../../auth/AuthDialogs';
import { completeSignIn, outcomeOf, outcomeOfError, showLoginFailure } from '../../auth/signIn';
import { finishSso, SSO_RETURN_PARAM } from '../../auth/sso';
import { useLogin } from '../../auth/useLogin';
import { RegisterForm } from './RegisterForm';
import { SignInForm } from './SignInForm';

/**
 * /auth — sign-in and registration (docs/product.md §2). `?tab=register` selects registration; a signed-in visitor
 * goes to /. Also where Keycloak sends the browser back after "Sign in with SSO" (`?sso=1`).
 */
export default function AuthPage() {
  const [params, setParams] = useSearchParams();
  const registering = params.get('tab') === 'register';
  const ssoReturn = params.get(SSO_RETURN_PARAM) === '1';
  const { user, isLoading } = useCurrentUser();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const login = useLogin('user');
  const { openDialog } = login;
  const [registeredUsername, setRegisteredUsername] = useState('');
  const [ssoBusy, setSsoBusy] = useState(ssoReturn);

  // Back from Keycloak: exchange the code, open the session and finish like a password sign-in.
  useEffect(() => {
    if (!ssoReturn) return;
    let active = true;
    void finishSso('user').then(async (result) => {
      if (!active) return;
      if (result.ok) {
        const outcome = outcomeOf(result.response);
        if (outcome.kind === 'success') {
          await completeSignIn(queryClient, navigate, result.response);
          return;
        }
        openDialog(outcome);
      } else {
        const outcome = outcomeOfError(result.error);
        if (outcome && outcome.kind !== 'success') openDialog(outcome);
        else showLoginFailure(result.error);
      }
      setSsoBusy(false);
      setParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          next.delete(SSO_RETURN_PARAM);
          return next;
        },
        { replace: true },
      );
    });
    return () => {
      active = false;
    };
  }, [ssoReturn, queryClient, navigate, openDialog, setParams]);

  const toggle = () => setParams(registering ? {} : { tab: 'register' });

  /*
   * Where a registration goes: docs/product.md §2 gives two readings, "/" or back to sign-in mode. We return the form
   * to sign-in mode with the new username filled in: the person stays where they will sign in once
   * approved, and trying it early shows the Account Under Review dialog that explains the wait. The toast
   * is the one of docs/product.md §4 (request submitted, check your email; 6 s) rather than the other reading's
   * "Please log in with your credentials", which a pending account cannot do yet.
   */
  const onRegistered = (username: string) => {
    setRegisteredUsername(username);
    setParams({});
  };

  if (ssoBusy) return <PageLoader message="Completing single sign-on..." />;
  if (isLoading) return <PageLoader message="Checking your session..." />;
  if (user && !login.isSigningIn) return <Navigate to="/" replace />;

  return (
    <Container size={registering ? 'sm' : 'xs'} py="xl">
      <Card withBorder radius="md" padding="xl" shadow="sm">
        <Stack gap="lg">
          <Stack gap={4} align="center">
            <Title order={1} size="h2" ta="center">
              {registering ? 'Create Account' : 'Welcome Back'}
            </Title>
            <Text c="dimmed" ta="center" size="sm">
              {registering
                ? 'Request access to the Quartermaster marketplace. An administrator reviews every account.'
                : 'Sign in to your Quartermaster account'}
            </Text>
          </Stack>

          {registering ? (
            <RegisterForm onRegistered={onRegistered} />
          ) : (
            <SignInForm
              key={registeredUsername}
              initialUsername={registeredUsername}
              onSubmit={login.login}
              submitting={login.isPending}
            />
          )}

          <Text size="sm" ta="center">
            {registering ? 'Already have an account? ' : "Don't have an account? "}
            <Anchor component="button" type="button" onClick={toggle} fw={600}>
              {registering ? 'Sign in' : 'Register here'}
            </Anchor>
          </Text>
        </Stack>
      </Card>

      <AccountUnderReviewDialog opened={login.dialog === 'pending'} onClose={login.closeDialog} />
      <AccountRejectedDialog
        opened={login.dialog === 'rejected'}
        onClose={login.closeDialog}
        message={login.dialogMessage}
      />
      <AccessDeniedDialog
        opened={login.dialog === 'access_denied'}
        onClose={login.closeDialog}
        portal="user"
      />
    </Container>
  );
}
