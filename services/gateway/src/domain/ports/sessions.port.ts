/** What a dashboard session holds; the session id itself is never stored, only its SHA-256. */
export interface SessionRecord {
  userId: string;
  tenantId: number;
  email: string;
  csrfToken: string;
  /** Epoch milliseconds: the absolute lifetime counts from here. */
  createdAt: number;
}

export interface LiveSession extends SessionRecord {
  idleExpiresAt: number;
  absoluteExpiresAt: number;
}

/** Dashboard sessions every gateway replica sees, each ending after an idle time and an absolute one. */
export interface Sessions {
  create(sessionId: string, record: SessionRecord): Promise<LiveSession>;
  /** The session if it is still live, its idle deadline moved on; undefined when unknown, ended or revoked. */
  touch(sessionId: string, now?: number): Promise<LiveSession | undefined>;
  /** Whether the session is still live, without moving its idle deadline (an open event stream is no use). */
  isLive(sessionId: string, now?: number): Promise<boolean>;
  revoke(sessionId: string): Promise<void>;
  /** Ends every session of the user at once (a removed user), on every replica. */
  revokeAllOf(userId: string): Promise<void>;
}

/** Seconds to wait when a sign-in attempt is over a limit; undefined when it may go ahead. */
export type ThrottleDecision = number | undefined;

/** Sign-in attempts counted per email and per client IP, before the password is checked. */
export interface SignInThrottle {
  attempt(email: string, ip: string): Promise<ThrottleDecision>;
  /** A successful sign-in clears its email's count. */
  succeeded(email: string): Promise<void>;
}
