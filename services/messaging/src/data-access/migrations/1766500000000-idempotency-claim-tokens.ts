import { addIdempotencyClaimToken, sqlMigration } from '@bm/platform';

/**
 * An Idempotency-Key's claim carries a fencing token (issue 33, a crash costs seconds): a claim its request's
 * process left unanswered is taken over after a few seconds instead of a minute, and a request whose claim was taken
 * over records nothing, so its work rolls back. A nullable column without a default: no table rewrite.
 */
export const IdempotencyClaimTokens1766500000000 = sqlMigration('IdempotencyClaimTokens1766500000000', {
  up: [(q) => addIdempotencyClaimToken(q, 'messaging')],
  down: ['ALTER TABLE messaging.idempotency_keys DROP COLUMN claim_token'],
});
