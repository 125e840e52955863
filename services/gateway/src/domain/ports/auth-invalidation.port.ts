/**
 * Tells every gateway replica that API keys or plans changed. A replica trusts its key cache only while
 * `generation` is defined and unchanged since the entry was cached.
 */
export interface AuthInvalidation {
  /** The current generation, or undefined while the replica cannot vouch for its cache. */
  generation(): number | undefined;
  onChange(listener: () => void): void;
  /** Announces a change to every replica (this one included). */
  publish(): Promise<void>;
}
