import type { Role } from '@bm/contracts';

export interface DashboardUser {
  id: string;
  tenantId: number;
  email: string;
  passwordHash: string | null;
  role: Role;
  createdAt: Date;
}

/** What a change to a user's role or membership came to. */
export type TeamChange =
  | { kind: 'done'; user: DashboardUser }
  | { kind: 'not-found' }
  /** The change would leave the tenant without an owner who has set a password. */
  | { kind: 'last-owner' };

export interface InviteRecord {
  userId: string;
  expiresAt: Date;
  usedAt: Date | null;
}

/** Dashboard users and their invites. */
export interface DashboardUsers {
  findByEmail(email: string): Promise<DashboardUser | undefined>;
  /** The tenant's user of that id; undefined for an unknown id or another tenant's user. */
  findInTenant(tenantId: number, id: string): Promise<DashboardUser | undefined>;
  /** The tenant's users, oldest first. */
  listForTenant(tenantId: number): Promise<DashboardUser[]>;
  /**
   * Makes the user when the email is new and records a fresh invite; earlier unused invites of the user stop
   * working, so only the newest link is ever valid. Answers the user as stored (another tenant's, if so).
   * `role` is a new user's (owner unless given); an existing user keeps theirs.
   */
  upsertWithInvite(
    newId: string,
    tenantId: number,
    email: string,
    tokenHash: Buffer,
    expiresAt: Date,
    role?: Role,
  ): Promise<DashboardUser>;
  /** Sets the role of the tenant's user, unless that leaves the tenant without an active owner. */
  changeRole(tenantId: number, userId: string, role: Role): Promise<TeamChange>;
  /** Removes the tenant's user and their invites, unless that leaves the tenant without an active owner. */
  remove(tenantId: number, userId: string): Promise<TeamChange>;
  /**
   * Spends the invite and sets the user's password at once; a second use of the same link, even a concurrent
   * one, sees it used. Answers what the invite was before this call (undefined when unknown), and the user
   * when the invite was spent now.
   */
  redeemInvite(
    tokenHash: Buffer,
    passwordHash: string,
    now: Date,
  ): Promise<{ invite: InviteRecord; user?: DashboardUser } | undefined>;
}
