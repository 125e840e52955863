import { useChannelAccounts, type ChannelAccount } from '../api/numbers';
import { CapacityBar } from '../components/capacity-bar';
import { CopyButton } from '../components/copy-button';
import { DataTable, type Column } from '../components/data-table';
import { QueryState } from '../components/query-state';
import { StatusBadge } from '../components/status-badge';
import { phone } from '../components/format';

const COLUMNS: Column<ChannelAccount>[] = [
  {
    header: 'API ID',
    cell: (a) => (
      <span className="with-action">
        <code>{a.channel_account_id}</code>
        <CopyButton value={a.channel_account_id} label={`Copy API ID of ${phone(a.display_phone_number)}`} />
      </span>
    ),
  },
  { header: 'Number', cell: (a) => phone(a.display_phone_number) },
  { header: 'Status', cell: (a) => <StatusBadge status={a.status} /> },
  { header: 'Portfolio', cell: (a) => a.business_id },
  { header: 'Tier', cell: (a) => a.tier.replace('TIER_', '').replace('_', ' ') },
  { header: 'Quality', cell: (a) => a.quality_event ?? 'No reports' },
  // The portfolio's: every number of it draws on one daily limit.
  { header: 'Portfolio today', cell: (a) => <CapacityBar capacity={a.capacity} /> },
  { header: 'Webhooks', cell: (a) => (a.webhooks_subscribed ? 'Subscribed' : 'Not subscribed') },
];

/** Every sending number: the API ID a send names, its state and today's capacity. */
export function NumbersScreen() {
  const accounts = useChannelAccounts();
  return (
    <>
      <h1>Numbers</h1>
      <p className="muted">
        Connecting a number is done by your operator. Use a number&apos;s API ID as channel_account_id.
      </p>
      <QueryState
        query={accounts}
        isEmpty={(rows) => rows.length === 0}
        empty={<p>No numbers are connected yet. Ask your operator to connect one.</p>}
      >
        {(rows) => (
          <DataTable
            caption="Sending numbers"
            columns={COLUMNS}
            rows={rows}
            rowKey={(a) => a.channel_account_id}
          />
        )}
      </QueryState>
    </>
  );
}
