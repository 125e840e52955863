import { sqlMigration } from '@bm/platform';

/**
 * Preparation drops duplicate phones itself, in the one transaction that writes a list (under the list's lock),
 * so the unique index only cost an index entry per recipient on the path of a 50,000-recipient list.
 */
export const RecipientsWithoutPhoneIndex1764100000001 = sqlMigration(
  'RecipientsWithoutPhoneIndex1764100000001',
  {
    up: ['DROP INDEX campaign.recipients_phone_idx'],
    down: ['CREATE UNIQUE INDEX recipients_phone_idx ON campaign.recipients (campaign_id, phone)'],
  },
);
