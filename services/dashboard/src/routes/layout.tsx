import { useEffect, useRef } from 'react';
import { Navigate, NavLink, Outlet, useLocation } from 'react-router';
import { unreadCount, useLastSeen, useNotifications } from '../api/notifications';
import type { RoleOperation } from '@bm/client';
import { useCan, useSession, useSignOut } from '../api/session';

/** Notifications in the navigation, with how many arrived since the list was last shown. */
function NotificationsLink({ tenantId }: { tenantId: number }) {
  const notifications = useNotifications();
  const [seen] = useLastSeen(tenantId);
  const unread = unreadCount(notifications.data?.notifications ?? [], seen);
  return (
    <NavLink
      to="/notifications"
      aria-label={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}
    >
      Notifications{' '}
      {unread > 0 && (
        <span className="count" data-testid="unread-count">
          {unread}
        </span>
      )}
    </NavLink>
  );
}

// Each item is shown to the roles that may call its operation.
const NAV: { to: string; label: string; end?: boolean; op: RoleOperation }[] = [
  { to: '/', label: 'Overview', end: true, op: 'getStats' },
  { to: '/inbox', label: 'Inbox', op: 'listConversations' },
  { to: '/numbers', label: 'Numbers', op: 'listChannelAccounts' },
  { to: '/campaigns', label: 'Campaigns', op: 'listCampaigns' },
  { to: '/templates', label: 'Templates', op: 'listTemplates' },
  { to: '/opt-outs', label: 'Opt-outs', op: 'listOptOuts' },
  { to: '/flows', label: 'Flows', op: 'listFlows' },
  { to: '/webhooks', label: 'Webhooks', op: 'getWebhookSettings' },
  { to: '/health', label: 'Health monitor', op: 'listWebhookDeliveries' },
  { to: '/messages', label: 'Sent messages', op: 'listMessages' },
  { to: '/send', label: 'Send a message', op: 'sendMessage' },
  { to: '/api-keys', label: 'API keys', op: 'listApiKeys' },
  { to: '/team', label: 'Team', op: 'listDashboardUsers' },
  { to: '/audit-log', label: 'Audit log', op: 'listAuditLog' },
];

/** The frame of every signed-in screen: skip link, left navigation, the user and sign out. */
export function Layout() {
  const session = useSession();
  const signOut = useSignOut();
  const can = useCan();
  const location = useLocation();
  const main = useRef<HTMLElement>(null);
  // After a navigation, keyboard and screen-reader users land on the new screen, not back at the top.
  useEffect(() => main.current?.focus(), [location.pathname]);

  if (session.isPending) {
    return (
      <p role="status" className="muted page-status">
        Loading…
      </p>
    );
  }
  if (!session.data) return <Navigate to="/sign-in" replace state={{ from: location.pathname }} />;
  return (
    <div className="shell">
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">Business Messaging</span>
        <span className="user">
          <span className="muted">
            {session.data.user.email} · {session.data.user.role}
          </span>
          <button type="button" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
            Sign out
          </button>
        </span>
      </header>
      <nav className="sidenav" aria-label="Main">
        <ul>
          {NAV.filter((item) => can(item.op)).map((item) => (
            <li key={item.to}>
              <NavLink to={item.to} end={item.end}>
                {item.label}
              </NavLink>
            </li>
          ))}
          <li>
            <NotificationsLink tenantId={session.data.user.tenant_id} />
          </li>
        </ul>
      </nav>
      <main id="main" ref={main} tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
