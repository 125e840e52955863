import { queryRows, withTransaction } from '@bm/platform';
import type { DataSource } from 'typeorm';
import type { DashboardUser } from '../domain/ports/dashboard-users.port';
import type { PasswordResets } from '../domain/ports/password-resets.port';
import { toUser, USER_COLUMNS, type UserRow } from './dashboard-user.repository';

/** Password reset links (gateway schema), stored as SHA-256 only. */
export class PasswordResetRepository implements PasswordResets {
  constructor(private readonly dataSource: DataSource) {}

  async replace(userId: string, tokenHash: Buffer, expiresAt: Date): Promise<void> {
    await withTransaction(this.dataSource, async (tx) => {
      await tx.query(
        `UPDATE gateway.password_resets SET used_at = now() WHERE user_id = $1 AND used_at IS NULL`,
        [userId],
      );
      await tx.query(
        `INSERT INTO gateway.password_resets (token_hash, user_id, expires_at) VALUES ($1, $2, $3)`,
        [tokenHash, userId, expiresAt],
      );
    });
  }

  async stateOf(tokenHash: Buffer, now: Date): Promise<'unknown' | 'spent' | 'valid'> {
    const [reset] = await queryRows<{ expires_at: Date; used_at: Date | null }>(
      this.dataSource,
      `SELECT expires_at, used_at FROM gateway.password_resets WHERE token_hash = $1`,
      [tokenHash],
    );
    if (!reset) return 'unknown';
    return reset.used_at !== null || reset.expires_at <= now ? 'spent' : 'valid';
  }

  async redeem(
    tokenHash: Buffer,
    passwordHash: string,
    now: Date,
  ): Promise<{ user?: DashboardUser } | undefined> {
    return withTransaction(this.dataSource, async (tx) => {
      const [reset] = await queryRows<{ user_id: string; expires_at: Date; used_at: Date | null }>(
        tx,
        `SELECT user_id, expires_at, used_at FROM gateway.password_resets WHERE token_hash = $1 FOR UPDATE`,
        [tokenHash],
      );
      if (!reset) return undefined;
      if (reset.used_at !== null || reset.expires_at <= now) return {};
      await tx.query(`UPDATE gateway.password_resets SET used_at = $2 WHERE token_hash = $1`, [
        tokenHash,
        now,
      ]);
      const [row] = await queryRows<UserRow>(
        tx,
        `UPDATE gateway.dashboard_users SET password_hash = $2, password_set_at = $3 WHERE id = $1
         RETURNING ${USER_COLUMNS}`,
        [reset.user_id, passwordHash, now],
      );
      return { user: toUser(row) };
    });
  }
}
