import type { Campaign } from '../api/campaigns';

/** Sent and failed of the total as a bar, with the figures in words. */
export function CampaignProgress({ campaign }: { campaign: Campaign }) {
  const done = campaign.sent_count + campaign.failed_count;
  const total = Math.max(campaign.total_count, done);
  const text = `${campaign.sent_count} sent · ${campaign.failed_count} failed · ${total} total`;
  return (
    <span className="capacity">
      <progress
        max={Math.max(total, 1)}
        value={done}
        aria-label={`Progress of ${campaign.name ?? campaign.campaign_id}`}
      >
        {text}
      </progress>
      <span data-testid="campaign-progress">{text}</span>
    </span>
  );
}
