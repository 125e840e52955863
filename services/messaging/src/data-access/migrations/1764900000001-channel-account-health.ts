import { sqlMigration } from '@bm/platform';

/**
 * What the dashboard's number list shows beside the tier: whether the upstream took the webhook subscription
 * (known at connect and at each template sync) and the latest quality event the upstream reported.
 */
export const ChannelAccountHealth1764900000001 = sqlMigration('ChannelAccountHealth1764900000001', {
  up: [
    `ALTER TABLE messaging.channel_accounts
      ADD COLUMN webhooks_subscribed boolean NOT NULL DEFAULT false,
      ADD COLUMN quality_event text`,
  ],
  down: [`ALTER TABLE messaging.channel_accounts DROP COLUMN webhooks_subscribed, DROP COLUMN quality_event`],
});
