import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createOutboxWakeTrigger, dropWakeTrigger } from '@bm/platform';

/**
 * What lets an idle campaign service sleep: the outbox relay is woken by its wake trigger instead of polling, and
 * the dispatchers of every replica by a notification on `campaign_dispatch` when a campaign is created or enters
 * a status the dispatcher steps, carrying when it falls due (epoch ms): a per-campaign write, off the send path.
 */
export class IdleWake1765200000000 implements MigrationInterface {
  name = 'IdleWake1765200000000';

  async up(q: QueryRunner): Promise<void> {
    await createOutboxWakeTrigger(q, 'campaign');
    await q.query(`
      CREATE FUNCTION campaign.campaign_dispatch_wake() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('campaign_dispatch',
          (extract(epoch FROM coalesce(NEW.next_check_at, NEW.scheduled_at, now())) * 1000)::bigint::text);
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER campaign_created_wake AFTER INSERT ON campaign.campaigns
        FOR EACH ROW WHEN (NEW.status IN ('pending', 'scheduled', 'processing', 'throttled'))
        EXECUTE FUNCTION campaign.campaign_dispatch_wake()`);
    await q.query(`
      CREATE TRIGGER campaign_status_wake AFTER UPDATE OF status ON campaign.campaigns
        FOR EACH ROW WHEN (NEW.status IN ('pending', 'scheduled', 'processing', 'throttled')
                           AND NEW.status IS DISTINCT FROM OLD.status)
        EXECUTE FUNCTION campaign.campaign_dispatch_wake()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER campaign_status_wake ON campaign.campaigns');
    await q.query('DROP TRIGGER campaign_created_wake ON campaign.campaigns');
    await q.query('DROP FUNCTION campaign.campaign_dispatch_wake()');
    await dropWakeTrigger(q, 'campaign', 'outbox');
  }
}
