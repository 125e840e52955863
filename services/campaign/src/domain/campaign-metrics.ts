import type { ServiceMetrics } from '@bm/platform';
import type { Campaigns } from './ports/campaigns.port';

/** What a campaign recipient became: handed to messaging, sent, or failed (at preparation, dispatch or send). */
export type RecipientOutcome = 'requested' | 'sent' | 'failed';

export interface CampaignMetrics {
  recipients: { inc(labels: { status: RecipientOutcome }, value?: number): void };
}

/**
 * Campaign progress: recipients by outcome, and campaigns by status read from the database at scrape time (so
 * every replica reports the same, whole picture).
 */
export function campaignMetrics(
  metrics: ServiceMetrics,
  campaigns: Pick<Campaigns, 'countActiveByStatus'>,
): CampaignMetrics {
  metrics.sampledGauge(
    { name: 'bm_campaigns_active', help: 'Campaigns not yet finished, by status', labelNames: ['status'] },
    async () =>
      (await campaigns.countActiveByStatus()).map((r) => ({ labels: { status: r.status }, value: r.count })),
  );
  return {
    recipients: metrics.counter({
      name: 'bm_campaign_recipients_total',
      help: 'Campaign recipients by outcome: requested (handed to messaging), sent, failed',
      labelNames: ['status'],
    }),
  };
}
