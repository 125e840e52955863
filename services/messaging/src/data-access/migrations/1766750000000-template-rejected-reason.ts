import { sqlMigration } from '@bm/platform';

/**
 * The reason the upstream gave when it rejected a template (its status webhook's `reason`), shown in the
 * template list (issue 35). Null unless the template is REJECTED; a nullable column without a default rewrites
 * no rows.
 */
export const TemplateRejectedReason1766750000000 = sqlMigration('TemplateRejectedReason1766750000000', {
  up: ['ALTER TABLE messaging.templates ADD COLUMN rejected_reason text'],
  down: ['ALTER TABLE messaging.templates DROP COLUMN rejected_reason'],
});
