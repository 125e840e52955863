import type { Role } from '@bm/contracts';
import { queryRows, withTransaction } from '@bm/platform';
import type { DataSource, EntityManager } from 'typeorm';
import type {
  DashboardUser,
  DashboardUsers,
  InviteRecord,
  TeamChange,
} from '../domain/ports/dashboard-users.port';

export interface UserRow {
  id: string;
  tenant_id: number;
  email: string;
  password_hash: string | null;
  role: Role;
  created_at: Date;
}

export const USER_COLUMNS = 'id, tenant_id, email, password_hash, role, created_at';
const COLUMNS = USER_COLUMNS;

export const toUser = (row: UserRow): DashboardUser => ({
  id: row.id,
  tenantId: row.tenant_id,
  email: row.email,
  passwordHash: row.password_hash,
  role: row.role,
  createdAt: row.created_at,
});

/** Dashboard users and their invites (gateway schema). */
export class DashboardUserRepository implements DashboardUsers {
  constructor(private readonly dataSource: DataSource) {}

  async findByEmail(email: string): Promise<DashboardUser | undefined> {
    const rows = await queryRows<UserRow>(
      this.dataSource,
      `SELECT ${COLUMNS} FROM gateway.dashboard_users WHERE email = $1`,
      [email],
    );
    return rows[0] && toUser(rows[0]);
  }

  async findInTenant(tenantId: number, id: string): Promise<DashboardUser | undefined> {
    const rows = await queryRows<UserRow>(
      this.dataSource,
      `SELECT ${COLUMNS} FROM gateway.dashboard_users WHERE id = $1 AND tenant_id = $2`,
      [id, tenantId],
    );
    return rows[0] && toUser(rows[0]);
  }

  async listForTenant(tenantId: number): Promise<DashboardUser[]> {
    const rows = await queryRows<UserRow>(
      this.dataSource,
      `SELECT ${COLUMNS} FROM gateway.dashboard_users
        WHERE tenant_id = $1 ORDER BY created_at, id`,
      [tenantId],
    );
    return rows.map(toUser);
  }

  /**
   * Makes the user when the email is new and records a fresh invite; earlier unused invites of the user stop
   * working, so only the newest link is ever valid. Answers the user as stored (another tenant's, if so).
   */
  async upsertWithInvite(
    newId: string,
    tenantId: number,
    email: string,
    tokenHash: Buffer,
    expiresAt: Date,
    role: Role = 'owner',
  ): Promise<DashboardUser> {
    return withTransaction(this.dataSource, async (tx) => {
      await tx.query(
        `INSERT INTO gateway.dashboard_users (id, tenant_id, email, role) VALUES ($1, $2, $3, $4)
         ON CONFLICT (email) DO NOTHING`,
        [newId, tenantId, email, role],
      );
      const [row] = await queryRows<UserRow>(
        tx,
        `SELECT ${COLUMNS} FROM gateway.dashboard_users WHERE email = $1 FOR UPDATE`,
        [email],
      );
      if (row.tenant_id !== tenantId) return toUser(row);
      await tx.query(
        `UPDATE gateway.dashboard_invites SET used_at = now() WHERE user_id = $1 AND used_at IS NULL`,
        [row.id],
      );
      await tx.query(
        `INSERT INTO gateway.dashboard_invites (token_hash, user_id, expires_at) VALUES ($1, $2, $3)`,
        [tokenHash, row.id, expiresAt],
      );
      return toUser(row);
    });
  }

  /**
   * Spends the invite and sets the user's password in one transaction; the row lock makes a second use of the
   * same link, even a concurrent one, see it used. Answers what the invite was before this call.
   */
  async redeemInvite(
    tokenHash: Buffer,
    passwordHash: string,
    now: Date,
  ): Promise<{ invite: InviteRecord; user?: DashboardUser } | undefined> {
    return withTransaction(this.dataSource, async (tx) => {
      const [invite] = await queryRows<{ user_id: string; expires_at: Date; used_at: Date | null }>(
        tx,
        `SELECT user_id, expires_at, used_at FROM gateway.dashboard_invites WHERE token_hash = $1 FOR UPDATE`,
        [tokenHash],
      );
      if (!invite) return undefined;
      const record = { userId: invite.user_id, expiresAt: invite.expires_at, usedAt: invite.used_at };
      if (invite.used_at !== null || invite.expires_at <= now) return { invite: record };
      await tx.query(`UPDATE gateway.dashboard_invites SET used_at = $2 WHERE token_hash = $1`, [
        tokenHash,
        now,
      ]);
      const [user] = await queryRows<UserRow>(
        tx,
        `UPDATE gateway.dashboard_users SET password_hash = $2, password_set_at = $3 WHERE id = $1
         RETURNING ${COLUMNS}`,
        [invite.user_id, passwordHash, now],
      );
      return { invite: record, user: toUser(user) };
    });
  }

  async changeRole(tenantId: number, userId: string, role: Role): Promise<TeamChange> {
    return this.changeTeam(tenantId, userId, role !== 'owner', async (tx) => {
      const [row] = await queryRows<UserRow>(
        tx,
        `UPDATE gateway.dashboard_users SET role = $3 WHERE id = $1 AND tenant_id = $2 RETURNING ${COLUMNS}`,
        [userId, tenantId, role],
      );
      return toUser(row);
    });
  }

  async remove(tenantId: number, userId: string): Promise<TeamChange> {
    return this.changeTeam(tenantId, userId, true, async (tx) => {
      const [row] = await queryRows<UserRow>(
        tx,
        `DELETE FROM gateway.dashboard_users WHERE id = $1 AND tenant_id = $2 RETURNING ${COLUMNS}`,
        [userId, tenantId],
      );
      return toUser(row);
    });
  }

  /**
   * Locks the tenant's users, then applies `change` unless the user is unknown, or `losesOwner` and the user is
   * the tenant's last owner with a password: two owners demoting each other at once cannot both succeed.
   */
  private async changeTeam(
    tenantId: number,
    userId: string,
    losesOwner: boolean,
    change: (tx: EntityManager) => Promise<DashboardUser>,
  ): Promise<TeamChange> {
    return withTransaction(this.dataSource, async (tx) => {
      const users = await queryRows<{ id: string; role: Role; active: boolean }>(
        tx,
        `SELECT id, role, password_hash IS NOT NULL AS active FROM gateway.dashboard_users
          WHERE tenant_id = $1 ORDER BY id FOR UPDATE`,
        [tenantId],
      );
      const target = users.find((u) => u.id === userId);
      if (!target) return { kind: 'not-found' };
      const otherActiveOwners = users.filter((u) => u.id !== userId && u.role === 'owner' && u.active);
      if (losesOwner && target.role === 'owner' && otherActiveOwners.length === 0) {
        return { kind: 'last-owner' };
      }
      return { kind: 'done', user: await change(tx) };
    });
  }
}
