import { useState } from 'react';
import { Link, useParams } from 'react-router';
import {
  useCampaign,
  useCampaignAction,
  useCampaigns,
  useRecipients,
  type Campaign,
  type CampaignAction,
  type Recipient,
  type RecipientQuery,
} from '../api/campaigns';
import { CampaignProgress } from '../components/campaign-status';
import { DataTable, type Column } from '../components/data-table';
import { customer, when } from '../components/format';
import { PagedList, type ListSpec } from '../components/paged-table';
import { ErrorMessage, QueryState } from '../components/query-state';
import { StatusBadge } from '../components/status-badge';
import { useCan } from '../api/session';

const NOT_STARTED: readonly Campaign['status'][] = ['pending', 'scheduled'];
const SENDING: readonly Campaign['status'][] = ['processing', 'throttled', 'paused'];

/**
 * What Cancel campaign does in the campaign's state: the published cancel before it starts, the stop while it is
 * sending (or paused), with a confirmation since recipients not reached yet are then never sent.
 */
export function cancelActionOf(c: Campaign): CampaignAction {
  return SENDING.includes(c.status) ? 'stop' : 'cancel';
}

/** Why an action is not available in the campaign's state, or null when it is (the server's rules, CONTRACT.md). */
export function disabledReason(c: Campaign, action: CampaignAction): string | null {
  const now = `it is ${c.status}`;
  switch (action) {
    case 'cancel':
    case 'stop':
      return NOT_STARTED.includes(c.status) || SENDING.includes(c.status)
        ? null
        : `Only a campaign that is waiting or sending can be cancelled; ${now}.`;
    case 'pause':
      return c.status === 'processing' || c.status === 'throttled'
        ? null
        : `Only a sending campaign (processing or throttled) can be paused; ${now}.`;
    case 'resume':
      return c.status === 'paused' ? null : `Only a paused campaign can be resumed; ${now}.`;
    case 'retry':
      if (c.status !== 'completed' && c.status !== 'failed') {
        return `Only a completed or failed campaign can be retried; ${now}.`;
      }
      return c.failed_count > 0 ? null : 'No recipient failed: there is nothing to retry.';
  }
}

const ACTIONS: Array<{ action: CampaignAction; label: string }> = [
  { action: 'cancel', label: 'Cancel campaign' },
  { action: 'pause', label: 'Pause' },
  { action: 'resume', label: 'Resume' },
  { action: 'retry', label: 'Retry failed' },
];

const STOP_CONFIRMATION =
  'Recipients not reached yet will not be sent; messages already handed over still go out. The campaign ends ' +
  'cancelled and cannot be resumed.';

/** The four actions; each disabled one says why, next to it and to assistive technology. */
export function CampaignActions({ campaign }: { campaign: Campaign }) {
  const act = useCampaignAction();
  const can = useCan();
  if (!can('cancelCampaign')) return null;
  const run = (action: CampaignAction) => {
    const chosen = action === 'cancel' ? cancelActionOf(campaign) : action;
    const title = campaign.name ?? campaign.campaign_id;
    if (
      chosen === 'stop' &&
      !window.confirm(`Cancel campaign ${title} while it is sending? ${STOP_CONFIRMATION}`)
    ) {
      return;
    }
    act.mutate({ id: campaign.campaign_id, action: chosen });
  };
  return (
    <div className="stack">
      <div className="actions">
        {ACTIONS.map(({ action, label }) => {
          const reason = disabledReason(campaign, action);
          const reasonId = `${campaign.campaign_id}-${action}-reason`;
          return (
            <span key={action} className="action">
              <button
                type="button"
                className={action === 'cancel' ? 'danger' : undefined}
                disabled={reason !== null || act.isPending}
                aria-describedby={reason ? reasonId : undefined}
                aria-label={`${label} ${campaign.name ?? campaign.campaign_id}${campaign.part_number ? ` part ${campaign.part_number}` : ''}`}
                onClick={() => run(action)}
              >
                {label}
              </button>
              {reason && (
                <span id={reasonId} className="muted reason">
                  {reason}
                </span>
              )}
            </span>
          );
        })}
      </div>
      {act.isError && <ErrorMessage error={act.error} />}
    </div>
  );
}

function Parts({ groupId }: { groupId: string }) {
  const parts = useCampaigns({ campaign_group_id: groupId, page: 1, per_page: 100 });
  const columns: Column<Campaign>[] = [
    { header: 'Part', cell: (c) => <Link to={`/campaigns/${c.campaign_id}`}>Part {c.part_number}</Link> },
    { header: 'Status', cell: (c) => <StatusBadge status={c.status} /> },
    { header: 'Recipients', cell: (c) => c.requested_count },
    { header: 'Progress', cell: (c) => <CampaignProgress campaign={c} /> },
    { header: 'Planned', cell: (c) => when(c.scheduled_at) },
    { header: 'Actions', cell: (c) => <CampaignActions campaign={c} /> },
  ];
  return (
    <section className="stack" aria-labelledby="parts-heading">
      <h2 id="parts-heading">Parts</h2>
      <QueryState query={parts} empty={null}>
        {(data) => (
          <DataTable caption="Parts" columns={columns} rows={data.campaigns} rowKey={(c) => c.campaign_id} />
        )}
      </QueryState>
    </section>
  );
}

const RECIPIENT_LIST: ListSpec<Recipient> = {
  columns: [
    { header: 'Phone', cell: (r) => customer(r.phone, r.user_id) },
    { header: 'Name', cell: (r) => r.name ?? '' },
    { header: 'Status', cell: (r) => <StatusBadge status={r.status} /> },
    {
      header: 'Message',
      cell: (r) =>
        r.message_log_id ? <Link to={`/messages/${r.message_log_id}`}>#{r.message_log_id}</Link> : '',
    },
    { header: 'Sent', cell: (r) => when(r.sent_at) },
    { header: 'Error', cell: (r) => r.error_message ?? '' },
  ],
  caption: 'Recipients',
  empty: 'No recipients match.',
  rowKey: (r) => (r.phone ?? r.user_id)!,
};

function Recipients({ campaign }: { campaign: Campaign }) {
  const [query, setQuery] = useState<RecipientQuery>({ page: 1, per_page: 50 });
  const progress = `${campaign.status}:${campaign.sent_count}:${campaign.failed_count}:${campaign.total_count}`;
  const recipients = useRecipients(campaign.campaign_id, query, progress);
  return (
    <section className="stack" aria-labelledby="recipients-heading">
      <h2 id="recipients-heading">Recipients</h2>
      <form className="filters" onSubmit={(e) => e.preventDefault()} aria-label="Filter recipients">
        <label>
          Recipient status
          <select
            value={query.status ?? ''}
            onChange={(e) =>
              setQuery({
                page: 1,
                per_page: 50,
                status: (e.target.value || undefined) as RecipientQuery['status'],
              })
            }
          >
            <option value="">Any</option>
            <option>pending</option>
            <option>sent</option>
            <option>failed</option>
          </select>
        </label>
      </form>
      <p>
        <a
          className="button"
          href={`/api/v1/campaigns/${encodeURIComponent(campaign.campaign_id)}/recipients/export`}
          download
        >
          Export CSV
        </a>
      </p>
      <PagedList
        query={recipients}
        rows={(data) => data.recipients}
        list={RECIPIENT_LIST}
        onPage={(page) => setQuery({ ...query, page })}
      />
    </section>
  );
}

/**
 * What the campaign costs, in the rate card's currency: the estimate for its deliverable recipients, and its
 * messages' costs so far. Each term and its value are a group named by the term (a `<div>` in a `<dl>` may hold
 * one), so the value can be found by its name.
 */
function CostFacts({ campaign: c }: { campaign: Campaign }) {
  const estimated = `${c.campaign_id}-estimated-cost`;
  const soFar = `${c.campaign_id}-cost-so-far`;
  const estimate =
    c.estimated_cost !== null
      ? `${c.estimated_cost} ${c.cost_currency}`
      : c.status === 'preparing'
        ? 'once the list is prepared'
        : 'not estimated';
  return (
    <>
      <div role="group" aria-labelledby={estimated}>
        <dt id={estimated}>Estimated cost</dt>
        <dd>{estimate}</dd>
      </div>
      <div role="group" aria-labelledby={soFar}>
        <dt id={soFar}>Cost so far</dt>
        <dd>{`${c.cost_amount} ${c.cost_currency}`}</dd>
      </div>
    </>
  );
}

/** A campaign: live progress, its facts, the actions its state allows, its parts and recipients. */
export function CampaignScreen() {
  const id = useParams().id ?? '';
  const campaign = useCampaign(id);
  return (
    <QueryState query={campaign} empty={null}>
      {(c) => (
        <div className="stack">
          <h1>Campaign {c.name ?? c.campaign_id}</h1>
          <section className="card stack" aria-label="Progress">
            <p aria-live="polite" data-testid="campaign-status">
              Status: <StatusBadge status={c.status} />
              {c.failure_reason ? ` · ${c.failure_reason}` : ''}
            </p>
            <CampaignProgress campaign={c} />
            <dl className="facts">
              <dt>Template</dt>
              <dd>
                {c.template_name} ({c.template_language ?? 'default'})
              </dd>
              <dt>Number</dt>
              <dd>
                <code>{c.channel_account_id}</code>
              </dd>
              <dt>Recipients submitted</dt>
              <dd>{c.requested_count}</dd>
              <dt>Scheduled</dt>
              <dd>{when(c.scheduled_at)}</dd>
              <dt>Created</dt>
              <dd>{when(c.created_at)}</dd>
              <CostFacts campaign={c} />
              {c.part_number !== null && (
                <>
                  <dt>Part</dt>
                  <dd>
                    {c.part_number} of {c.parts_total}
                  </dd>
                </>
              )}
            </dl>
            <CampaignActions campaign={c} />
          </section>
          {c.campaign_group_id !== null && <Parts groupId={c.campaign_group_id} />}
          <Recipients campaign={c} />
        </div>
      )}
    </QueryState>
  );
}
