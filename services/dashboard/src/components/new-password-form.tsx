import { useState, type FormEvent } from 'react';
import { ErrorMessage } from './query-state';

/** The token a link carries in its fragment (which no server ever receives), read once when the page opens. */
export const tokenFromHash = () => new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';

/** A new password typed twice, sent once both agree. */
export function NewPasswordForm(props: {
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (password: string) => void;
}) {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const mismatch = confirm !== '' && confirm !== password;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!mismatch) props.onSubmit(password);
  };
  return (
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
          onChange={(e) => setPassword(e.target.value)}
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
      {props.error !== null && props.error !== undefined && <ErrorMessage error={props.error} />}
      <button type="submit" className="primary" disabled={props.pending}>
        {props.submitLabel}
      </button>
    </form>
  );
}
