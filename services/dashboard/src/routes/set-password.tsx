import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ErrorMessage } from '../components/query-state';
import { useSetPassword } from '../api/session';

// The invite link carries its token in the fragment, which no server ever receives.
const tokenFromHash = () => new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';

export function SetPasswordScreen() {
  const setPassword = useSetPassword();
  const [password, setPasswordValue] = useState('');
  const [confirm, setConfirm] = useState('');
  const mismatch = confirm !== '' && confirm !== password;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!mismatch) setPassword.mutate({ token: tokenFromHash(), password });
  };
  if (setPassword.isSuccess) {
    return (
      <main className="auth" id="main">
        <h1>Password set</h1>
        <p role="status">Your password is set for {setPassword.data.email}.</p>
        <Link to="/sign-in">Sign in</Link>
      </main>
    );
  }
  return (
    <main className="auth" id="main">
      <h1>Choose your password</h1>
      <form onSubmit={submit} className="stack">
        <label>
          New password (12 characters or more)
          <input
            type="password"
            autoComplete="new-password"
            minLength={12}
            maxLength={128}
            required
            value={password}
            onChange={(e) => setPasswordValue(e.target.value)}
          />
        </label>
        <label>
          Repeat it
          <input
            type="password"
            autoComplete="new-password"
            required
            value={confirm}
            aria-invalid={mismatch}
            onChange={(e) => setConfirm(e.target.value)}
          />
        </label>
        {mismatch && (
          <p role="alert" className="error">
            The two passwords differ.
          </p>
        )}
        {setPassword.isError && <ErrorMessage error={setPassword.error} />}
        <button type="submit" className="primary" disabled={setPassword.isPending}>
          Set password
        </button>
      </form>
    </main>
  );
}
