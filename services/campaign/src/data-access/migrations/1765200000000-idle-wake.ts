import { createOutboxWakeTrigger, dropWakeTrigger, sqlMigration } from '@bm/platform';

/**
 * What lets an idle campaign service sleep: the outbox relay is woken by its wake trigger instead of polling, and
 * the dispatchers of every replica by a notification on `campaign_dispatch` when a campaign is created or enters
 * a status the dispatcher steps, carrying when it falls due (epoch ms): a per-campaign write, off the send path.
 */
export const IdleWake1765200000000 = sqlMigration('IdleWake1765200000000', {
  up: [
    (q) => createOutboxWakeTrigger(q, 'campaign'),
    `
      CREATE FUNCTION campaign.campaign_dispatch_wake() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('campaign_dispatch',
          (extract(epoch FROM coalesce(NEW.next_check_at, NEW.scheduled_at, now())) * 1000)::bigint::text);
        RETURN NULL;
      END $$`,
    `
      CREATE TRIGGER campaign_created_wake AFTER INSERT ON campaign.campaigns
        FOR EACH ROW WHEN (NEW.status IN ('pending', 'scheduled', 'processing', 'throttled'))
        EXECUTE FUNCTION campaign.campaign_dispatch_wake()`,
    `
      CREATE TRIGGER campaign_status_wake AFTER UPDATE OF status ON campaign.campaigns
        FOR EACH ROW WHEN (NEW.status IN ('pending', 'scheduled', 'processing', 'throttled')
                           AND NEW.status IS DISTINCT FROM OLD.status)
        EXECUTE FUNCTION campaign.campaign_dispatch_wake()`,
  ],
  down: [
    'DROP TRIGGER campaign_status_wake ON campaign.campaigns',
    'DROP TRIGGER campaign_created_wake ON campaign.campaigns',
    'DROP FUNCTION campaign.campaign_dispatch_wake()',
    (q) => dropWakeTrigger(q, 'campaign', 'outbox'),
  ],
});
