import { useState } from 'react';
import {
  useDeliveries,
  useRedeliver,
  WEBHOOK_EVENTS,
  type Delivery,
  type DeliveryList,
  type DeliveryQuery,
} from '../api/webhooks';
import { when } from '../components/format';
import { PagedTable, type ListSpec } from '../components/paged-table';
import { ErrorMessage, QueryState } from '../components/query-state';
import { StatusBadge } from '../components/status-badge';
import { useCan } from '../api/session';

function EndpointSummary({ endpoint }: { endpoint: DeliveryList['endpoint'] }) {
  const rate = endpoint.success_rate === null ? '—' : `${Math.round(endpoint.success_rate * 1000) / 10}%`;
  return (
    <section className="summary card" aria-label="Endpoint health">
      <div>
        <span className="muted">Endpoint</span> <code>{endpoint.url ?? 'none set'}</code>
      </div>
      <div>
        <span className="muted">Success rate ({endpoint.window_hours} h)</span> <strong>{rate}</strong>
      </div>
      <div>
        {endpoint.delivered} delivered · {endpoint.failed} failed · {endpoint.pending} pending
      </div>
      <div>
        <span className="muted">Last error</span>{' '}
        {endpoint.last_error
          ? `${when(endpoint.last_error.at)}: ${endpoint.last_error.error}${endpoint.last_error.http_status ? ` (HTTP ${endpoint.last_error.http_status})` : ''}`
          : 'none'}
      </div>
    </section>
  );
}

function Attempts({ delivery }: { delivery: Delivery }) {
  return (
    <details>
      <summary>{delivery.attempts.length} attempt(s)</summary>
      <ol className="attempts">
        {delivery.attempts.map((a) => (
          <li key={a.attempt}>
            #{a.attempt} {when(a.at)} · HTTP {a.http_status ?? '—'} · {a.duration_ms ?? '—'} ms
            {a.error ? ` · ${a.error}` : ''}
            {a.response_excerpt ? <pre>{a.response_excerpt}</pre> : null}
          </li>
        ))}
      </ol>
    </details>
  );
}

function RedeliverButton({ delivery }: { delivery: Delivery }) {
  const redeliver = useRedeliver();
  const can = useCan();
  if (!can('redeliverWebhook')) return null;
  return (
    <>
      <button
        type="button"
        className="small"
        disabled={redeliver.isPending || delivery.status === 'pending'}
        onClick={() => redeliver.mutate(delivery.delivery_id)}
        aria-label={`Redeliver ${delivery.event} ${delivery.delivery_id}`}
      >
        Redeliver
      </button>
      {redeliver.isError && <ErrorMessage error={redeliver.error} />}
    </>
  );
}

const DELIVERY_LIST: ListSpec<Delivery> = {
  columns: [
    { header: 'Created', cell: (d) => when(d.created_at) },
    { header: 'Event', cell: (d) => d.event },
    { header: 'Status', cell: (d) => <StatusBadge status={d.status} /> },
    { header: 'Attempts', cell: (d) => <Attempts delivery={d} /> },
    { header: 'Action', cell: (d) => <RedeliverButton delivery={d} /> },
  ],
  caption: 'Webhook deliveries',
  empty: 'No deliveries match.',
  rowKey: (d) => d.delivery_id,
};

/** Every delivery and its attempts, filters by status and event, Redeliver; the endpoint's health on top. */
export function HealthScreen() {
  const [query, setQuery] = useState<DeliveryQuery>({ page: 1, per_page: 50 });
  const deliveries = useDeliveries(query);
  return (
    <>
      <h1>Webhook health monitor</h1>
      <form className="filters" onSubmit={(e) => e.preventDefault()} aria-label="Filter deliveries">
        <label>
          Status
          <select
            value={query.status ?? ''}
            onChange={(e) =>
              setQuery({
                ...query,
                page: 1,
                status: (e.target.value || undefined) as DeliveryQuery['status'],
              })
            }
          >
            <option value="">Any</option>
            <option value="pending">pending</option>
            <option value="delivered">delivered</option>
            <option value="failed">failed</option>
          </select>
        </label>
        <label>
          Event
          <select
            value={query.event ?? ''}
            onChange={(e) =>
              setQuery({ ...query, page: 1, event: (e.target.value || undefined) as DeliveryQuery['event'] })
            }
          >
            <option value="">Any</option>
            {WEBHOOK_EVENTS.map((ev) => (
              <option key={ev} value={ev}>
                {ev}
              </option>
            ))}
          </select>
        </label>
      </form>
      <QueryState query={deliveries} empty={null}>
        {(data) => (
          <>
            <EndpointSummary endpoint={data.endpoint} />
            <PagedTable
              list={DELIVERY_LIST}
              rows={data.deliveries}
              pagination={data.pagination}
              onPage={(page) => setQuery({ ...query, page })}
            />
          </>
        )}
      </QueryState>
    </>
  );
}
