import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A send whose outcome stayed unknown through its reconciliation window may be sent again once, under the
 * `resend` policy: the message remembers that it was, so a second unknown outcome fails instead of repeating.
 */
export class UnknownOutcomeResend1763900000009 implements MigrationInterface {
  name = 'UnknownOutcomeResend1763900000009';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      'ALTER TABLE messaging.message_logs ADD COLUMN resent_after_unknown_outcome boolean NOT NULL DEFAULT false',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE messaging.message_logs DROP COLUMN resent_after_unknown_outcome');
  }
}
