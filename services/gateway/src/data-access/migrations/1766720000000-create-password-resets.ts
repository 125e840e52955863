import { sqlMigration } from '@bm/platform';

export const CreatePasswordResets1766720000000 = sqlMigration('CreatePasswordResets1766720000000', {
  up: [
    // Only the SHA-256 of a reset token is kept; the link itself goes to the user's mailbox alone.
    `CREATE TABLE gateway.password_resets (
      token_hash bytea PRIMARY KEY,
      user_id text NOT NULL REFERENCES gateway.dashboard_users(id) ON DELETE CASCADE,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE INDEX password_resets_user_idx ON gateway.password_resets (user_id)`,
  ],
  down: [`DROP TABLE gateway.password_resets`],
});
