import { useState } from 'react';
import { Link } from 'react-router';
import {
  useDeliveries,
  useRedeliver,
  useWebhookEndpoints,
  WEBHOOK_EVENTS,
  type Delivery,
  type DeliveryList,
  type DeliveryQuery,
} from '../api/webhooks';
import { when } from '../components/format';
import { readableError } from '../components/webhook-error';
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
          ? `${when(endpoint.last_error.at)}: ${readableError(endpoint.last_error.error, endpoint.last_error.http_status)}`
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
            #{a.attempt} {when(a.at)} · {a.duration_ms ?? '—'} ms ·{' '}
            {a.error ? readableError(a.error, a.http_status) : `HTTP ${a.http_status ?? '—'}`}
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

/** The event's body as sent, shown on demand; React escapes every value. */
function Payload({ delivery }: { delivery: Delivery }) {
  return (
    <details>
      <summary aria-label={`Payload of ${delivery.event_id}`}>Payload</summary>
      <pre className="payload">{JSON.stringify(delivery.payload, null, 2)}</pre>
    </details>
  );
}

/** Where the event leads: its message's page, its campaign's page. */
function Subject({ delivery }: { delivery: Delivery }) {
  if (delivery.message_id === null && delivery.campaign_id === null) return '—';
  return (
    <span className="stack">
      {delivery.message_id !== null && (
        <Link to={`/messages/${delivery.message_id}`}>Message #{delivery.message_id}</Link>
      )}
      {delivery.campaign_id !== null && <Link to={`/campaigns/${delivery.campaign_id}`}>Campaign</Link>}
    </span>
  );
}

const DELIVERY_LIST: ListSpec<Delivery> = {
  columns: [
    { header: 'Created', cell: (d) => when(d.created_at) },
    {
      header: 'Event',
      cell: (d) => (
        <span className="stack">
          {d.event}
          <code className="muted">{d.event_id}</code>
        </span>
      ),
    },
    { header: 'Endpoint', cell: (d) => (d.url ? <code>{d.url}</code> : '—') },
    { header: 'Status', cell: (d) => <StatusBadge status={d.status} /> },
    { header: 'About', cell: (d) => <Subject delivery={d} /> },
    { header: 'Payload', cell: (d) => <Payload delivery={d} /> },
    { header: 'Attempts', cell: (d) => <Attempts delivery={d} /> },
    { header: 'Action', cell: (d) => <RedeliverButton delivery={d} /> },
  ],
  caption: 'Webhook deliveries',
  empty: 'No deliveries match.',
  rowKey: (d) => d.delivery_id,
};

/**
 * Every delivery with its event id, endpoint, payload, what it is about and its attempts; filters by status,
 * event and endpoint; Redeliver. The health of the endpoint chosen (or of all) on top.
 */
export function HealthScreen() {
  const [query, setQuery] = useState<DeliveryQuery>({ page: 1, per_page: 50 });
  const deliveries = useDeliveries(query);
  const endpoints = useWebhookEndpoints();
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
        <label>
          Endpoint
          <select
            value={query.endpoint_id ?? ''}
            onChange={(e) => setQuery({ ...query, page: 1, endpoint_id: e.target.value || undefined })}
          >
            <option value="">Any</option>
            {endpoints.data?.endpoints.map((ep) => (
              <option key={ep.endpoint_id} value={ep.endpoint_id}>
                {ep.description ?? ep.url}
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
