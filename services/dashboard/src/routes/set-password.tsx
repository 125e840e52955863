import { useState } from 'react';
import { Navigate } from 'react-router';
import { useSetPassword } from '../api/session';
import { NewPasswordForm, tokenFromHash } from '../components/new-password-form';

/** The invite link's page: the password chosen here signs the user in. */
export function SetPasswordScreen() {
  const setPassword = useSetPassword();
  const [token] = useState(tokenFromHash);
  if (setPassword.isSuccess) return <Navigate to="/" replace />;
  return (
    <main className="auth" id="main">
      <h1>Choose your password</h1>
      <NewPasswordForm
        submitLabel="Set password"
        pending={setPassword.isPending}
        error={setPassword.error}
        onSubmit={(password) => setPassword.mutate({ token, password })}
      />
    </main>
  );
}
