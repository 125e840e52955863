import { sqlMigration } from '@bm/platform';

/**
 * A campaign's cost (CONTRACT.md, per-message pricing): the template's category, kept from the create so that
 * preparation can price the list; `estimated_cost` in `cost_currency`, reckoned once when the list is prepared
 * (its deliverable recipients at the rate card's prices); and `cost_amount`, the last sum of its messages' costs
 * messaging gave (at `cost_checked_at`), answered until it is COST_REFRESH_MS old and whenever messaging cannot
 * be asked. Campaigns created before stay without an estimate
 * (null: their category was not kept, and pricing rules stay out of SQL); their cost so far is asked as any
 * other's. Adding columns without a volatile default rewrites nothing.
 */
export const CampaignCost1766100000000 = sqlMigration('CampaignCost1766100000000', {
  up: [
    `ALTER TABLE campaign.campaigns
       ADD COLUMN template_category text,
       ADD COLUMN estimated_cost numeric(16, 4),
       ADD COLUMN cost_currency text,
       ADD COLUMN cost_amount numeric(16, 4) NOT NULL DEFAULT 0,
       ADD COLUMN cost_checked_at timestamptz`,
  ],
  down: [
    `ALTER TABLE campaign.campaigns
       DROP COLUMN cost_checked_at, DROP COLUMN cost_amount, DROP COLUMN cost_currency, DROP COLUMN estimated_cost,
       DROP COLUMN template_category`,
  ],
});
