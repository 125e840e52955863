import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useLastSeen, useNotifications, type Notification } from '../api/notifications';
import { useSession } from '../api/session';
import { customer, when } from '../components/format';
import { Pager } from '../components/pager';
import { QueryState } from '../components/query-state';
import { StatusBadge } from '../components/status-badge';

/**
 * The notification's conversation; one raised before the inbox kept conversations names none, and the inbox finds
 * it by the customer and the number.
 */
function conversationLink(n: Extract<Notification, { type: 'live_chat_request' }>): string {
  if (n.conversation_id) return `/inbox/${n.conversation_id}`;
  const query = new URLSearchParams({ account: n.channel_account_id });
  if (n.customer_phone) query.set('phone', n.customer_phone);
  if (n.customer_user_id) query.set('user', n.customer_user_id);
  return `/inbox?${query.toString()}`;
}

function Item({ n, unread }: { n: Notification; unread: boolean }) {
  return (
    <li className={`card stack${unread ? ' unread' : ''}`}>
      {n.type === 'live_chat_request' ? (
        <>
          <strong>
            Live chat requested by {n.customer_name ?? customer(n.customer_phone, n.customer_user_id)}
            {n.customer_name ? ` (${customer(n.customer_phone, n.customer_user_id)})` : ''}
          </strong>
          {n.text && <span>“{n.text}”</span>}
          <Link to={conversationLink(n)}>Open the conversation</Link>
        </>
      ) : (
        <>
          <strong>
            Template {n.template_name} ({n.language}) <StatusBadge status={n.status} />
          </strong>
          {n.reason && <span>Reason: {n.reason}</span>}
        </>
      )}
      <span className="muted">
        {when(n.created_at)}
        {unread ? ' · new' : ''}
      </span>
    </li>
  );
}

/** Live-chat requests and template reviews, newest first; showing them marks them read. */
export function NotificationsScreen() {
  const [page, setPage] = useState(1);
  const notifications = useNotifications(page);
  const tenantId = useSession().data?.user.tenant_id ?? 0;
  const [seen, markSeen] = useLastSeen(tenantId);
  // What was new when the screen opened stays marked as new while it is shown.
  const [seenAtOpen] = useState(seen);
  useEffect(() => {
    if (notifications.data) markSeen();
  }, [notifications.data, markSeen]);
  return (
    <>
      <h1>Notifications</h1>
      <QueryState query={notifications} empty={null}>
        {(data) => (
          <>
            {data.notifications.length === 0 ? (
              <p className="empty">No notifications yet.</p>
            ) : (
              <ul className="plain stack" aria-label="Notifications">
                {data.notifications.map((n) => (
                  <Item key={n.notification_id} n={n} unread={n.created_at > seenAtOpen} />
                ))}
              </ul>
            )}
            <Pager pagination={data.pagination} onPage={setPage} />
          </>
        )}
      </QueryState>
    </>
  );
}
