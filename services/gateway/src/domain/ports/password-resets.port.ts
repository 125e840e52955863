import type { DashboardUser } from './dashboard-users.port';

/** Password reset links, kept as the SHA-256 of their token. */
export interface PasswordResets {
  /** Records a new link of the user; the user's earlier unused links stop working. */
  replace(userId: string, tokenHash: Buffer, expiresAt: Date): Promise<void>;
  /** What the link is now, read without a lock: a cheap answer before a password is hashed for it. */
  stateOf(tokenHash: Buffer, now: Date): Promise<'unknown' | 'spent' | 'valid'>;
  /**
   * Spends the link and sets the user's password at once; a second use of the same link, even a concurrent
   * one, finds it spent. Undefined for an unknown link; `user` only when the link was spent now.
   */
  redeem(tokenHash: Buffer, passwordHash: string, now: Date): Promise<{ user?: DashboardUser } | undefined>;
}
