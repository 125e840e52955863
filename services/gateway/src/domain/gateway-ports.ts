/*
 * What the gateway's domain needs of the stores every replica shares (Redis, in data-access): fixed-window
 * counters, the sign-in throttle, and the announcement that keys or plans changed.
 */

/** Fixed-window counters shared by every gateway replica. */
export interface WindowCounter {
  /** Whether the store is connected now; when not, callers pass unmetered rather than wait for it. */
  ready(): boolean;
  /** Counts one hit in the key's window (it starts with its first hit); the count so far and the ms left. */
  hit(key: string, windowMs: number): Promise<{ count: number; msLeft: number }>;
}

/** Seconds to wait when a sign-in attempt is over a limit; undefined when it may go ahead. */
export type ThrottleDecision = number | undefined;

/** Sign-in attempts counted per email and per client IP, before the password is checked. */
export interface SignInThrottle {
  attempt(email: string, ip: string): Promise<ThrottleDecision>;
  /** A successful sign-in clears its email's count. */
  succeeded(email: string): Promise<void>;
}

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
