import { sqlMigration } from '@bm/platform';

/**
 * Per-message pricing (CONTRACT.md, the network of late 2026): a message log keeps the upstream's `pricing`
 * (`{model, type, category}`, null until a status report gives it); its `cost_amount`/`cost_currency` are then
 * reckoned from the operator's rate card. Existing logs stay unpriced (null) at cost 0. No rewrite.
 */
export const MessagePricing1766000000002 = sqlMigration('MessagePricing1766000000002', {
  up: ['ALTER TABLE messaging.message_logs ADD COLUMN pricing jsonb'],
  down: ['ALTER TABLE messaging.message_logs DROP COLUMN pricing'],
});
