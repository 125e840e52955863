/** A status word with a colour class; the word itself carries the meaning, never the colour alone. */
export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${status.toLowerCase()}`}>{status}</span>;
}
