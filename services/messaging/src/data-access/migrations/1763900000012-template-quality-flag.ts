import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The upstream's FLAGGED event (low quality, may be paused later) leaves a template sendable: it is kept beside
 * the status, not as one, until a later APPROVED or REINSTATED clears it.
 */
export class TemplateQualityFlag1763900000012 implements MigrationInterface {
  name = 'TemplateQualityFlag1763900000012';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      'ALTER TABLE messaging.templates ADD COLUMN flagged_at timestamptz, ADD COLUMN flag_reason text',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE messaging.templates DROP COLUMN flagged_at, DROP COLUMN flag_reason');
  }
}
