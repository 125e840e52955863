import { sqlMigration } from '@bm/platform';

/**
 * A claimed message that is still waiting for its number's throughput slot says so, so that when its worker dies
 * the sweep knows it never reached the upstream and sends it again, instead of failing it as an attempt whose
 * outcome is unknown.
 */
export const AwaitingSlot1763900000008 = sqlMigration('AwaitingSlot1763900000008', {
  up: ['ALTER TABLE messaging.message_logs ADD COLUMN awaiting_slot boolean NOT NULL DEFAULT false'],
  down: ['ALTER TABLE messaging.message_logs DROP COLUMN awaiting_slot'],
});
