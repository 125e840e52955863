import { unwrap, type components } from '@bm/client';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import { api } from './client';

export type Notification = components['schemas']['NotificationList']['notifications'][number];

/** The newest notifications, polled for the navigation's unread count. */
export function useNotifications(page = 1) {
  return useQuery({
    queryKey: ['notifications', page],
    queryFn: async () =>
      unwrap(await api.GET('/api/v1/notifications', { params: { query: { page, per_page: 50 } } })),
    refetchInterval: 10_000,
  });
}

// The API keeps no read state: "unread" is newer than the last time this browser showed the list, kept in
// localStorage per tenant, and shared by every component through a tiny store.
const SEEN_PREFIX = 'bm.notifications.seen.';
const listeners = new Set<() => void>();

export function useLastSeen(tenantId: number): [string, () => void] {
  const key = `${SEEN_PREFIX}${tenantId}`;
  const subscribe = useCallback((l: () => void) => {
    listeners.add(l);
    return () => listeners.delete(l);
  }, []);
  const seen = useSyncExternalStore(subscribe, () => localStorage.getItem(key) ?? '');
  const markSeen = useCallback(() => {
    localStorage.setItem(key, new Date().toISOString());
    for (const l of listeners) l();
  }, [key]);
  return [seen, markSeen];
}

export const unreadCount = (notifications: Notification[], seen: string) =>
  notifications.filter((n) => n.created_at > seen).length;
