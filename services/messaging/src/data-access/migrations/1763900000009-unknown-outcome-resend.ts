import { sqlMigration } from '@bm/platform';

/**
 * A send whose outcome stayed unknown through its reconciliation window may be sent again once, under the
 * `resend` policy: the message remembers that it was, so a second unknown outcome fails instead of repeating.
 */
export const UnknownOutcomeResend1763900000009 = sqlMigration('UnknownOutcomeResend1763900000009', {
  up: [
    'ALTER TABLE messaging.message_logs ADD COLUMN resent_after_unknown_outcome boolean NOT NULL DEFAULT false',
  ],
  down: ['ALTER TABLE messaging.message_logs DROP COLUMN resent_after_unknown_outcome'],
});
