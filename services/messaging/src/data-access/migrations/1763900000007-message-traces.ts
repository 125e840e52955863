import { sqlMigration } from '@bm/platform';

/**
 * The trace of the request that created a message. The upstream's receipts come without one (webhook-ingress
 * starts a new trace for each webhook), so the status events of delivered, read and failed continue this one:
 * a send's trace reaches the client's receiver for every status, not only `sent`.
 */
export const MessageTraces1763900000007 = sqlMigration('MessageTraces1763900000007', {
  up: ['ALTER TABLE messaging.message_logs ADD COLUMN traceparent text'],
  down: ['ALTER TABLE messaging.message_logs DROP COLUMN traceparent'],
});
