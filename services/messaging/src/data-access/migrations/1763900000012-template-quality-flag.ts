import { sqlMigration } from '@bm/platform';

/**
 * The upstream's FLAGGED event (low quality, may be paused later) leaves a template sendable: it is kept beside
 * the status, not as one, until a later APPROVED or REINSTATED clears it.
 */
export const TemplateQualityFlag1763900000012 = sqlMigration('TemplateQualityFlag1763900000012', {
  up: ['ALTER TABLE messaging.templates ADD COLUMN flagged_at timestamptz, ADD COLUMN flag_reason text'],
  down: ['ALTER TABLE messaging.templates DROP COLUMN flagged_at, DROP COLUMN flag_reason'],
});
