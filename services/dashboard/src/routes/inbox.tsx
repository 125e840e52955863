import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { useConversationEvents } from '../api/conversation-events';
import {
  findConversation,
  useConversations,
  type Conversation,
  type ConversationFilters,
} from '../api/conversations';
import { useSession } from '../api/session';
import { useFilterParams } from '../components/filter-params';
import { customer } from '../components/format';
import { Pager } from '../components/pager';
import { QueryState } from '../components/query-state';
import { REPLY_BOX_ID } from './inbox-composer';
import { Thread } from './inbox-thread';

const short = (iso: string) =>
  new Date(iso).toLocaleString(undefined, {
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });

function ConversationLink({
  c,
  selected,
  me,
  search,
}: {
  c: Conversation;
  selected: boolean;
  me?: string;
  search: string;
}) {
  const who = customer(c.customer.phone, c.customer.user_id);
  return (
    <Link
      to={`/inbox/${c.id}${search}`}
      className={`conversation${c.unread_count > 0 ? ' has-unread' : ''}`}
      aria-current={selected ? 'true' : undefined}
    >
      <span className="conversation-top">
        <strong>{c.customer.name ?? who}</strong>
        <time dateTime={c.last_activity_at}>{short(c.last_activity_at)}</time>
      </span>
      {c.customer.name && <span className="muted small">{who}</span>}
      <span className="conversation-text">{c.last_message_text ?? '—'}</span>
      <span className="conversation-flags">
        {c.unread_count > 0 && <span className="count">{c.unread_count} unread</span>}
        {c.assignee !== null && c.assignee === me && <span className="badge">mine</span>}
        {c.status === 'closed' && <span className="badge">closed</span>}
      </span>
    </Link>
  );
}

/** The filters, kept in the address so a reload or a shared link shows the same list. */
function Filters({ params, set }: { params: URLSearchParams; set: (name: string, value: string) => void }) {
  const current = params.get('q') ?? '';
  const [q, setQ] = useState(current);
  // The address changed by other means (the navigation's Inbox link, a notification): the box follows it.
  const [seen, setSeen] = useState(current);
  if (current !== seen) {
    setSeen(current);
    if (current !== q.trim()) setQ(current);
  }
  useEffect(() => {
    if (q.trim() === current) return;
    const timer = setTimeout(() => set('q', q.trim()), 300);
    return () => clearTimeout(timer);
  }, [q, current, set]);
  const check = (name: string) => (
    <input
      type="checkbox"
      checked={params.get(name) === '1'}
      onChange={(e) => set(name, e.target.checked ? '1' : '')}
    />
  );
  return (
    <div className="filters inbox-filters">
      <label>
        Search conversations
        <input
          type="search"
          value={q}
          placeholder="Phone, name or text"
          onChange={(e) => setQ(e.target.value)}
        />
      </label>
      <label>
        Status
        <select
          value={params.get('status') ?? 'open'}
          onChange={(e) => set('status', e.target.value === 'open' ? '' : e.target.value)}
        >
          <option value="open">Open</option>
          <option value="closed">Closed</option>
          <option value="all">All</option>
        </select>
      </label>
      <label>
        Order
        <select value={params.get('order') ?? ''} onChange={(e) => set('order', e.target.value)}>
          <option value="">Newest activity</option>
          <option value="waiting">Waiting longest</option>
        </select>
      </label>
      <label className="inline">{check('mine')} Assigned to me</label>
      <label className="inline">{check('unread')} Unread only</label>
    </div>
  );
}

/** A live-chat notification's customer and number, resolved to their conversation. */
function OpenFromNotification({ params }: { params: URLSearchParams }) {
  const channelAccountId = params.get('account') ?? '';
  const phone = params.get('phone') || null;
  const userId = params.get('user') || null;
  const found = useQuery({
    queryKey: ['conversations', 'find', channelAccountId, phone, userId],
    queryFn: async () => (await findConversation({ phone, userId, channelAccountId })) ?? null,
  });
  if (found.data) return <Navigate to={`/inbox/${found.data.id}`} replace />;
  if (found.data === null) return <p className="empty">No conversation with this customer yet.</p>;
  return (
    <QueryState query={found} empty={null}>
      {() => null}
    </QueryState>
  );
}

const typing = (el: EventTarget | null) =>
  el instanceof HTMLElement && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));

/** The live-chat inbox: conversations on the left, the open one on the right; j/k move, r replies. */
export function InboxScreen() {
  const { id } = useParams();
  const navigate = useNavigate();
  const [params, set] = useFilterParams();
  const me = useSession().data?.user.user_id;
  const live = useConversationEvents();
  const status = params.get('status') ?? 'open';
  const filters: ConversationFilters = {
    page: Number(params.get('page') ?? 1) || 1,
    ...(status === 'all' ? {} : { status: status as 'open' | 'closed' }),
    ...(params.get('q') ? { q: params.get('q')! } : {}),
    ...(params.get('mine') === '1' && me ? { assignee: me } : {}),
    ...(params.get('unread') === '1' ? { unread: true } : {}),
    ...(params.get('order') === 'waiting' ? { order: 'waiting' as const } : {}),
  };
  const list = useConversations(filters, live);
  const unreadOnly = filters.unread === true;
  const shown = useMemo(() => list.data?.conversations ?? [], [list.data]);
  const search = params.toString() ? `?${params.toString()}` : '';

  // The conversation j/k move from: the one just asked for, even before the screen has caught up with it, so a
  // quick j j moves two down.
  const cursor = useRef(id);
  useEffect(() => {
    cursor.current = id;
  }, [id]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || typing(e.target)) return;
      if (e.key === 'j' || e.key === 'k') {
        const at = shown.findIndex((c) => c.id === cursor.current);
        const next = at < 0 ? 0 : e.key === 'j' ? at + 1 : at - 1;
        const target = shown[Math.max(0, Math.min(shown.length - 1, next))];
        if (target && target.id !== cursor.current) {
          cursor.current = target.id;
          void navigate(`/inbox/${target.id}${search}`);
        }
        e.preventDefault();
      } else if (e.key === 'r') {
        const box = document.getElementById(REPLY_BOX_ID);
        if (box) {
          e.preventDefault();
          box.focus();
        }
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [shown, navigate, search]);

  useEffect(() => {
    document.querySelector('.conversation-list [aria-current="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [id]);

  const leaveReply = () => {
    const selected = document.querySelector<HTMLElement>('.conversation-list [aria-current="true"]');
    if (selected) selected.focus();
    else (document.activeElement as HTMLElement | null)?.blur();
  };

  return (
    <>
      <div className="inbox-title">
        <h1>Inbox</h1>
        <span className="muted small" data-testid="inbox-live">
          {live ? 'Live' : 'Updated every 10 s'} · j/k move, r replies
        </span>
      </div>
      <div className={`inbox${id ? ' has-thread' : ''}`}>
        <section className="inbox-list" aria-label="Conversation list">
          <Filters params={params} set={set} />
          <QueryState
            query={list}
            isEmpty={() => shown.length === 0}
            empty={
              params.get('q') || unreadOnly || params.get('mine')
                ? 'No conversation matches.'
                : 'No conversations yet.'
            }
          >
            {(data) => (
              <>
                <ul className="plain conversation-list" aria-label="Conversations">
                  {shown.map((c) => (
                    <li key={c.id}>
                      <ConversationLink c={c} selected={c.id === id} me={me} search={search} />
                    </li>
                  ))}
                </ul>
                {data.pagination.last_page > 1 && (
                  <Pager pagination={data.pagination} onPage={(p) => set('page', String(p))} />
                )}
              </>
            )}
          </QueryState>
        </section>
        <section className="inbox-thread" aria-label="Conversation">
          {id ? (
            <>
              <Link className="narrow-only" to={`/inbox${search}`}>
                Back to conversations
              </Link>
              <Thread id={id} live={live} onEscape={leaveReply} />
            </>
          ) : params.get('account') ? (
            <OpenFromNotification params={params} />
          ) : (
            <p className="empty">Pick a conversation (j and k move through the list).</p>
          )}
        </section>
      </div>
    </>
  );
}
