import type { ServiceMetrics } from '@bm/platform';
import type { DataSource } from 'typeorm';

/** What a campaign recipient became: handed to messaging, sent, or failed (at preparation, dispatch or send). */
export type RecipientOutcome = 'requested' | 'sent' | 'failed';

export interface CampaignMetrics {
  recipients: { inc(labels: { status: RecipientOutcome }, value?: number): void };
}

/**
 * Campaign progress: recipients by outcome, and campaigns by status read from the database at scrape time (so
 * every replica reports the same, whole picture).
 */
export function campaignMetrics(metrics: ServiceMetrics, dataSource: DataSource): CampaignMetrics {
  metrics.sampledGauge(
    { name: 'bm_campaigns_active', help: 'Campaigns not yet finished, by status', labelNames: ['status'] },
    async () => {
      const rows: Array<{ status: string; count: string }> = await dataSource.query(
        `SELECT status, count(*) AS count FROM campaign.campaigns
          WHERE status IN ('preparing', 'pending', 'scheduled', 'processing', 'throttled', 'paused')
          GROUP BY status`,
      );
      return rows.map((r) => ({ labels: { status: r.status }, value: Number(r.count) }));
    },
  );
  return {
    recipients: metrics.counter({
      name: 'bm_campaign_recipients_total',
      help: 'Campaign recipients by outcome: requested (handed to messaging), sent, failed',
      labelNames: ['status'],
    }),
  };
}
