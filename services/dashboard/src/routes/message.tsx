import { Link, useParams } from 'react-router';
import { useMessage } from '../api/messages';
import { customer, phone, when } from '../components/format';
import { MessageContentView } from '../components/message-content';
import { QueryState } from '../components/query-state';
import { StatusBadge } from '../components/status-badge';
import { StatusTimeline } from '../components/status-timeline';

/**
 * One message: its status as it changes (no reload), what was sent, the timeline, the error, and its auto-retry
 * links.
 */
export function MessageScreen() {
  const id = Number(useParams().id);
  const message = useMessage(id);
  return (
    <>
      <p>
        <Link to="/messages">← Sent messages</Link>
      </p>
      <h1>Message #{id}</h1>
      <QueryState query={message} empty={null}>
        {(m) => (
          <div className="grid">
            <dl className="card facts">
              <dt>Status</dt>
              <dd aria-live="polite" data-testid="message-status">
                <StatusBadge status={m.status} />
              </dd>
              <dt>From</dt>
              <dd>{m.from_phone ? phone(m.from_phone) : '—'}</dd>
              <dt>To</dt>
              <dd>{customer(m.to_phone, m.to_user_id)}</dd>
              <dt>Type</dt>
              <dd>{m.message_type}</dd>
              <dt>Number (API ID)</dt>
              <dd>
                <code>{m.channel_account_id}</code>
              </dd>
              <dt>Created</dt>
              <dd>{when(m.created_at)}</dd>
              <dt>Upstream id</dt>
              <dd>{m.provider_message_id ?? '—'}</dd>
              <dt>Cost</dt>
              <dd>
                {m.cost_amount} {m.cost_currency}
              </dd>
              <dt>Pricing</dt>
              <dd>
                {m.pricing
                  ? [m.pricing.category, m.pricing.type, m.pricing.model].filter(Boolean).join(' · ')
                  : 'Not priced yet'}
              </dd>
              {m.held && (
                <>
                  <dt>Held</dt>
                  <dd>Held by the network for quality assessment</dd>
                </>
              )}
              {m.campaign_id && (
                <>
                  <dt>Campaign</dt>
                  <dd>
                    <Link to={`/campaigns/${m.campaign_id}`}>{m.campaign_id}</Link>
                  </dd>
                </>
              )}
              {m.error_message && (
                <>
                  <dt>Error</dt>
                  <dd className="error">
                    {m.error_message}
                    {m.error_code !== null ? ` (code ${m.error_code})` : ''}
                  </dd>
                </>
              )}
              {m.retry_of_message_log_id !== null && (
                <>
                  <dt>Auto-retry of</dt>
                  <dd>
                    <Link to={`/messages/${m.retry_of_message_log_id}`}>#{m.retry_of_message_log_id}</Link>
                  </dd>
                </>
              )}
              {m.retried_by_message_log_id !== null && (
                <>
                  <dt>Retried as</dt>
                  <dd>
                    <Link to={`/messages/${m.retried_by_message_log_id}`}>
                      #{m.retried_by_message_log_id}
                    </Link>
                  </dd>
                </>
              )}
            </dl>
            <section className="card" aria-labelledby="content-heading">
              <h2 id="content-heading">Content</h2>
              <MessageContentView content={m.content} />
            </section>
            <section className="card" aria-labelledby="timeline-heading">
              <h2 id="timeline-heading">Timeline</h2>
              <StatusTimeline message={m} />
            </section>
          </div>
        )}
      </QueryState>
    </>
  );
}
