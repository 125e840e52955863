import { Link } from 'react-router';
import { useCampaigns, type Campaign, type CampaignListQuery } from '../api/campaigns';
import { CampaignProgress } from '../components/campaign-status';
import { useFilterParams } from '../components/filter-params';
import { when } from '../components/format';
import { PagedList, type ListSpec } from '../components/paged-table';
import { StatusBadge } from '../components/status-badge';
import { useCan } from '../api/session';

const STATUSES = [
  'preparing',
  'pending',
  'scheduled',
  'processing',
  'throttled',
  'paused',
  'completed',
  'cancelled',
  'failed',
] as const;

const CAMPAIGN_LIST: ListSpec<Campaign> = {
  columns: [
    {
      header: 'Name',
      cell: (c) => <Link to={`/campaigns/${c.campaign_id}`}>{c.name ?? c.campaign_id}</Link>,
    },
    {
      header: 'Part',
      cell: (c) => (c.part_number !== null ? `${c.part_number} of ${c.parts_total ?? '?'}` : ''),
    },
    { header: 'Status', cell: (c) => <StatusBadge status={c.status} /> },
    { header: 'Progress', cell: (c) => <CampaignProgress campaign={c} /> },
    { header: 'Template', cell: (c) => c.template_name },
    { header: 'Scheduled', cell: (c) => when(c.scheduled_at) },
    { header: 'Created', cell: (c) => when(c.created_at) },
  ],
  caption: 'Campaigns',
  empty: 'No campaigns yet.',
  rowKey: (c) => c.campaign_id,
};

/** The parts of a split campaign side by side, in part order, where the first of them falls in the page. */
export function groupParts(campaigns: Campaign[]): Campaign[] {
  const out: Campaign[] = [];
  const placed = new Set<string>();
  for (const c of campaigns) {
    if (c.campaign_group_id === null) out.push(c);
    else if (!placed.has(c.campaign_group_id)) {
      placed.add(c.campaign_group_id);
      const group = c.campaign_group_id;
      out.push(
        ...campaigns
          .filter((p) => p.campaign_group_id === group)
          .sort((a, b) => (a.part_number ?? 0) - (b.part_number ?? 0)),
      );
    }
  }
  return out;
}

export function CampaignsScreen() {
  const [params, set] = useFilterParams();
  const query: CampaignListQuery = {
    status: (params.get('status') || undefined) as CampaignListQuery['status'],
    page: Number(params.get('page') ?? 1),
    per_page: 50,
  };
  const campaigns = useCampaigns(query);
  const can = useCan();
  return (
    <>
      <div className="with-action">
        <h1>Campaigns</h1>
        {can('createCampaign') && (
          <Link className="button primary" to="/campaigns/new">
            New campaign
          </Link>
        )}
      </div>
      <form className="filters" onSubmit={(e) => e.preventDefault()} aria-label="Filter campaigns">
        <label>
          Status
          <select value={params.get('status') ?? ''} onChange={(e) => set('status', e.target.value)}>
            <option value="">Any</option>
            {STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
      </form>
      <PagedList
        query={campaigns}
        rows={(data) => groupParts(data.campaigns)}
        list={CAMPAIGN_LIST}
        onPage={(page) => set('page', String(page))}
      />
    </>
  );
}
