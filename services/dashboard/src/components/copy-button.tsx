import { useState } from 'react';

/** Copies a value to the clipboard and says so (to screen readers too). */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(value);
    setCopied(true);
    setTimeout(() => setCopied(false), 2_000);
  };
  return (
    <button type="button" className="small" aria-label={label} onClick={() => void copy()}>
      <span aria-live="polite">{copied ? 'Copied' : 'Copy'}</span>
    </button>
  );
}
