import { sqlMigration } from '@bm/platform';

/**
 * The claim walks endpoints (a skip scan over tenant_id) and each endpoint's due deliveries in time order,
 * instead of all due deliveries in time order: a hanging endpoint's backlog is no longer scanned on every claim.
 */
export const ClaimByEndpoint1764000000001 = sqlMigration('ClaimByEndpoint1764000000001', {
  up: [
    `CREATE INDEX deliveries_endpoint_due_idx ON dispatcher.deliveries (tenant_id, next_attempt_at)
        WHERE status = 'pending'`,
    `DROP INDEX dispatcher.deliveries_due_idx`,
  ],
  down: [
    `CREATE INDEX deliveries_due_idx ON dispatcher.deliveries (next_attempt_at, id) WHERE status = 'pending'`,
    `DROP INDEX dispatcher.deliveries_endpoint_due_idx`,
  ],
});
