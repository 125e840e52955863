import { useState } from 'react';
import { Link, Navigate } from 'react-router';
import { ApiError } from '@bm/client';
import { useResetPassword } from '../api/session';
import { NewPasswordForm, tokenFromHash } from '../components/new-password-form';

/** A reset link's page: the new password signs the user in; a spent or expired link says how to get another. */
export function ResetPasswordScreen() {
  const reset = useResetPassword();
  const [token] = useState(tokenFromHash);
  if (reset.isSuccess) return <Navigate to="/" replace />;
  const spent =
    reset.error instanceof ApiError && ['RESET_LINK_EXPIRED', 'NOT_FOUND'].includes(reset.error.code);
  return (
    <main className="auth" id="main">
      <h1>Choose a new password</h1>
      {spent ? (
        <>
          <p role="alert" className="error">
            This reset link has expired or was already used.
          </p>
          <Link to="/forgot-password">Ask for a new link</Link>
        </>
      ) : (
        <NewPasswordForm
          submitLabel="Set new password"
          pending={reset.isPending}
          error={reset.error}
          onSubmit={(password) => reset.mutate({ token, password })}
        />
      )}
    </main>
  );
}
