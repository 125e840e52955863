import { useMemo } from 'react';
import { useChannelAccounts, type ChannelAccount } from '../api/numbers';
import { useStats, type MessageStats, type StatusCounts } from '../api/stats';
import { useDeliveries } from '../api/webhooks';
import { CapacityBar } from '../components/capacity-bar';
import { TimeChart, type ChartSeries } from '../components/chart';
import { DataTable, type Column } from '../components/data-table';
import { phone } from '../components/format';
import { QueryState } from '../components/query-state';

const SHOWN: Array<{ status: keyof StatusCounts; color: string }> = [
  { status: 'sent', color: '#1d4ed8' },
  { status: 'delivered', color: '#0b6e4f' },
  { status: 'read', color: '#7c3aed' },
  { status: 'failed', color: '#b42318' },
];

const percent = (rate: number | null | undefined) =>
  rate === null || rate === undefined ? '—' : `${Math.round(rate * 1000) / 10}%`;

function chartOf(buckets: MessageStats['hourly']): { times: number[]; series: ChartSeries[] } {
  return {
    times: buckets.map((b) => Date.parse(b.start) / 1000),
    series: SHOWN.map(({ status, color }) => ({
      label: status,
      color,
      values: buckets.map((b) => b.counts[status]),
    })),
  };
}

function Totals({ counts, label, id }: { counts: StatusCounts; label: string; id: string }) {
  return (
    <dl className="figures" aria-label={label} data-testid={id}>
      {SHOWN.map(({ status }) => (
        <div key={status}>
          <dt>{status}</dt>
          <dd data-testid={`${id}-${status}`}>{counts[status]}</dd>
        </div>
      ))}
    </dl>
  );
}

function Charts({ stats }: { stats: MessageStats }) {
  const hourly = useMemo(() => chartOf(stats.hourly), [stats.hourly]);
  const daily = useMemo(() => chartOf(stats.daily), [stats.daily]);
  return (
    <>
      <section className="card stack" aria-labelledby="hourly-heading">
        <h2 id="hourly-heading">Messages by status, last 24 hours</h2>
        <Totals counts={stats.totals_24h} label="Last 24 hours" id="totals-24h" />
        <TimeChart label="Messages by status per hour over the last 24 hours" {...hourly} />
      </section>
      <section className="card stack" aria-labelledby="daily-heading">
        <h2 id="daily-heading">Messages by status, last 30 days</h2>
        <Totals counts={stats.totals_30d} label="Last 30 days" id="totals-30d" />
        <TimeChart label="Messages by status per day over the last 30 days" {...daily} />
      </section>
    </>
  );
}

const CAPACITY_COLUMNS: Column<ChannelAccount>[] = [
  { header: 'Number', cell: (a) => phone(a.display_phone_number) },
  { header: 'API ID', cell: (a) => <code>{a.channel_account_id}</code> },
  // The daily limit is the business portfolio's: every number of it draws on the same capacity.
  { header: 'Portfolio', cell: (a) => a.business_id },
  { header: 'Capacity used today', cell: (a) => <CapacityBar capacity={a.capacity} /> },
];

/** The home screen: how sending is going, from the statistics endpoint, the webhook monitor and the numbers. */
export function OverviewScreen() {
  const stats = useStats();
  const accounts = useChannelAccounts();
  const webhooks = useDeliveries({ page: 1, per_page: 1 });
  const endpoint = webhooks.data?.endpoint;
  return (
    <div className="stack">
      <h1>Overview</h1>
      <QueryState query={stats} empty={null}>
        {(s) => (
          <>
            <dl className="figures card" aria-label="Rates">
              <div>
                <dt>Delivery rate (30 days)</dt>
                <dd data-testid="delivery-rate">{percent(s.delivery_rate)}</dd>
              </div>
              <div>
                <dt>Read rate (30 days)</dt>
                <dd data-testid="read-rate">{percent(s.read_rate)}</dd>
              </div>
              <div>
                <dt>Cost (30 days)</dt>
                <dd data-testid="cost-30d">
                  {s.cost_30d} {s.cost_currency}
                </dd>
              </div>
              <div>
                <dt>Webhook success ({endpoint?.window_hours ?? 24} h)</dt>
                <dd data-testid="webhook-rate">
                  {endpoint?.url ? percent(endpoint.success_rate) : 'no webhook set'}
                </dd>
              </div>
            </dl>
            <Charts stats={s} />
            <section className="card stack" aria-labelledby="cost-heading">
              <h2 id="cost-heading">Cost per day, last 30 days ({s.cost_currency})</h2>
              {s.cost_daily.every((d) => d.total === 0) ? (
                <p className="empty">No priced messages yet.</p>
              ) : (
                <ul aria-label="Cost per day">
                  {s.cost_daily
                    .filter((d) => d.total !== 0)
                    .map((d) => (
                      <li key={d.start}>
                        {d.start.slice(0, 10)}: <strong>{d.total}</strong> (
                        {Object.entries(d.by_category)
                          .map(([category, amount]) => `${category} ${amount}`)
                          .join(', ')}
                        )
                      </li>
                    ))}
                </ul>
              )}
            </section>
            <section className="card stack" aria-labelledby="failures-heading">
              <h2 id="failures-heading">Failed messages by error, last 30 days</h2>
              {s.failures_by_error.length === 0 ? (
                <p className="empty">No failures.</p>
              ) : (
                <ul className="bars" aria-label="Failures by error">
                  {s.failures_by_error.map((f) => (
                    <li key={f.error}>
                      <span
                        className="bar"
                        style={{ width: `${(f.count / s.failures_by_error[0].count) * 100}%` }}
                      />
                      <span>
                        {f.error}: <strong>{f.count}</strong>
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          </>
        )}
      </QueryState>
      <section className="stack" aria-labelledby="capacity-heading">
        <h2 id="capacity-heading">Capacity used today</h2>
        <QueryState query={accounts} empty={null}>
          {(rows) => (
            <DataTable
              caption="Capacity by number"
              columns={CAPACITY_COLUMNS}
              rows={rows}
              rowKey={(a) => a.channel_account_id}
            />
          )}
        </QueryState>
      </section>
    </div>
  );
}
