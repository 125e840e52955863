import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useRequestPasswordReset } from '../api/session';
import { ErrorMessage } from '../components/query-state';

/** Asks for a reset link by mail; what it shows after is the same whether or not the address is anyone's. */
export function ForgotPasswordScreen() {
  const request = useRequestPasswordReset();
  const [email, setEmail] = useState('');

  const submit = (e: FormEvent) => {
    e.preventDefault();
    request.mutate({ email });
  };
  return (
    <main className="auth" id="main">
      <h1>Reset your password</h1>
      {request.isSuccess ? (
        <p role="status">
          If {request.variables.email} belongs to a dashboard user, a link to choose a new password is on its
          way. It works once, within an hour.
        </p>
      ) : (
        <form onSubmit={submit} className="stack">
          <label>
            Email
            <input
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </label>
          {request.isError && <ErrorMessage error={request.error} />}
          <button type="submit" className="primary" disabled={request.isPending}>
            Send reset link
          </button>
        </form>
      )}
      <Link to="/sign-in">Back to sign in</Link>
    </main>
  );
}
