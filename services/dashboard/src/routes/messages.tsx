import type { ListMessagesQuery, MessageLog } from '@bm/client';
import { Link } from 'react-router';
import { useMessages } from '../api/messages';
import { useChannelAccounts } from '../api/numbers';
import { useFilterParams } from '../components/filter-params';
import { customer, phone, when } from '../components/format';
import { PagedList, type ListSpec } from '../components/paged-table';
import { StatusBadge } from '../components/status-badge';
import { AccountOptions } from '../components/account-options';
import { contentSummary } from '../components/message-content';

const STATUSES = ['queued', 'scheduled', 'sent', 'delivered', 'read', 'failed', 'cancelled'] as const;
const TYPES = ['text', 'template', 'interactive'] as const;

const MESSAGE_LIST: ListSpec<MessageLog> = {
  columns: [
    { header: 'ID', cell: (m) => <Link to={`/messages/${m.message_log_id}`}>#{m.message_log_id}</Link> },
    { header: 'From', cell: (m) => (m.from_phone ? phone(m.from_phone) : '—') },
    { header: 'To', cell: (m) => customer(m.to_phone, m.to_user_id) },
    { header: 'Type', cell: (m) => m.message_type },
    {
      header: 'Content',
      cell: (m) => {
        const summary = contentSummary(m.content);
        return (
          <span className="content-cell" title={summary}>
            {summary}
          </span>
        );
      },
    },
    { header: 'Status', cell: (m) => <StatusBadge status={m.status} /> },
    { header: 'Created', cell: (m) => when(m.created_at) },
    {
      header: 'Retry',
      cell: (m) =>
        m.retry_of_message_log_id !== null ? (
          <Link to={`/messages/${m.retry_of_message_log_id}`}>retry of #{m.retry_of_message_log_id}</Link>
        ) : m.retried_by_message_log_id !== null ? (
          <Link to={`/messages/${m.retried_by_message_log_id}`}>
            retried as #{m.retried_by_message_log_id}
          </Link>
        ) : (
          ''
        ),
    },
    { header: 'Error', cell: (m) => m.error_message ?? '' },
  ],
  caption: 'Sent messages',
  empty: 'No messages match.',
  rowKey: (m) => m.message_log_id,
};

// datetime-local values are wall-clock time in the viewer's zone; the API wants instants.
const toInstant = (local: string | null) => (local ? new Date(local).toISOString() : undefined);

/** The search box's text as the list's filter: digits are our message id, anything else the upstream's wamid. */
function searchOf(text: string | null): Pick<ListMessagesQuery, 'message_id' | 'wamid'> {
  const q = (text ?? '').trim().replace(/^#/, '');
  if (q === '') return {};
  return /^\d{1,15}$/.test(q) ? { message_id: Number(q) } : { wamid: q };
}

/** The filters live in the address, so a filtered list can be bookmarked and survives a reload. */
function queryOf(params: URLSearchParams): ListMessagesQuery {
  const get = (name: string) => params.get(name) || undefined;
  return {
    ...searchOf(params.get('q')),
    status: get('status') as ListMessagesQuery['status'],
    channel_account_id: get('channel_account_id'),
    to_phone: get('to_phone'),
    message_type: get('message_type') as ListMessagesQuery['message_type'],
    campaign_id: get('campaign_id'),
    created_from: toInstant(params.get('from')),
    created_to: toInstant(params.get('to')),
    page: Number(params.get('page') ?? 1),
    per_page: 50,
  };
}

/** The export's address: the list's filters without its page (the export has none). */
function exportHref(query: ListMessagesQuery): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && name !== 'page' && name !== 'per_page') search.set(name, String(value));
  }
  const text = search.toString();
  return `/api/v1/messages/export${text ? `?${text}` : ''}`;
}

export function MessagesScreen() {
  const [params, set] = useFilterParams();
  const query = queryOf(params);
  const messages = useMessages(query);
  const accounts = useChannelAccounts();
  const field = (name: string) => params.get(name) ?? '';
  return (
    <>
      <h1>Sent messages</h1>
      <div className="list-tools">
        <form
          role="search"
          aria-label="Find a message"
          onSubmit={(e) => {
            e.preventDefault();
            const input = new FormData(e.currentTarget).get('q');
            set('q', typeof input === 'string' ? input.trim() : '');
          }}
        >
          <label>
            Message ID or wamid <input type="search" name="q" defaultValue={field('q')} key={field('q')} />
          </label>{' '}
          <button type="submit">Search</button>
        </form>
        <a className="button" href={exportHref(query)} download>
          Export CSV
        </a>
      </div>
      <form className="filters" onSubmit={(e) => e.preventDefault()} aria-label="Filter messages">
        <label>
          Status
          <select value={field('status')} onChange={(e) => set('status', e.target.value)}>
            <option value="">Any</option>
            {STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <label>
          Number
          <select
            value={field('channel_account_id')}
            onChange={(e) => set('channel_account_id', e.target.value)}
          >
            <option value="">Any</option>
            <AccountOptions accounts={accounts.data} />
          </select>
        </label>
        <label>
          Phone
          <input
            type="tel"
            defaultValue={field('to_phone')}
            onBlur={(e) => set('to_phone', e.target.value.trim())}
          />
        </label>
        <label>
          Type
          <select value={field('message_type')} onChange={(e) => set('message_type', e.target.value)}>
            <option value="">Any</option>
            {TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </label>
        <label>
          Campaign
          <input
            defaultValue={field('campaign_id')}
            onBlur={(e) => set('campaign_id', e.target.value.trim())}
          />
        </label>
        <label>
          From
          <input type="datetime-local" value={field('from')} onChange={(e) => set('from', e.target.value)} />
        </label>
        <label>
          To
          <input type="datetime-local" value={field('to')} onChange={(e) => set('to', e.target.value)} />
        </label>
      </form>
      <PagedList
        query={messages}
        rows={(data) => data.messages}
        list={MESSAGE_LIST}
        onPage={(page) => set('page', String(page))}
      />
    </>
  );
}
