import { unwrap, type components } from '@bm/client';
import {
  keepPreviousData,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { api } from './client';

export type Conversation = components['schemas']['Conversation'];
export type ConversationMessage = components['schemas']['ConversationMessage'];
export type ReplyRequest = components['schemas']['ReplyToConversationRequest'];

export interface ConversationFilters {
  status?: 'open' | 'closed';
  assignee?: string;
  q?: string;
  channel_account_id?: string;
  unread?: boolean;
  order?: 'waiting';
  page: number;
}

export const conversationsKey = ['conversations'] as const;
const listKey = (f: ConversationFilters) => [...conversationsKey, 'list', f] as const;
const oneKey = (id: string) => [...conversationsKey, 'one', id] as const;
const threadKey = (id: string) => [...conversationsKey, 'thread', id] as const;

/** How often the open thread and the list are fetched again while the event stream is down. */
export const FALLBACK_POLL_MS = 10_000;
/** Faster while one of our messages still waits for its first status (only while the stream is down). */
const PENDING_POLL_MS = 2_000;
const PER_PAGE = 50;

export function useConversations(filters: ConversationFilters, live: boolean) {
  return useQuery({
    queryKey: listKey(filters),
    queryFn: async () =>
      unwrap(
        await api.GET('/api/v1/conversations', { params: { query: { ...filters, per_page: PER_PAGE } } }),
      ),
    placeholderData: keepPreviousData,
    refetchInterval: live ? false : FALLBACK_POLL_MS,
  });
}

export function useConversation(id: string | undefined, live: boolean) {
  return useQuery({
    queryKey: oneKey(id ?? ''),
    enabled: id !== undefined,
    queryFn: async () =>
      unwrap(await api.GET('/api/v1/conversations/{id}', { params: { path: { id: id! } } })),
    refetchInterval: live ? false : FALLBACK_POLL_MS,
  });
}

const PENDING = new Set(['queued']);

/** The latest page of a thread, oldest first; older pages are fetched by `useOlderMessages`. */
export function useThread(id: string | undefined, live: boolean) {
  return useQuery({
    queryKey: threadKey(id ?? ''),
    enabled: id !== undefined,
    queryFn: async () =>
      unwrap(await api.GET('/api/v1/conversations/{id}/messages', { params: { path: { id: id! } } })),
    refetchInterval: (q) => {
      if (live) return false;
      const pending = q.state.data?.messages.some((m) => m.status !== null && PENDING.has(m.status));
      return pending ? PENDING_POLL_MS : FALLBACK_POLL_MS;
    },
  });
}

/** A page older than `before`, put in front of the cached thread. */
export function useOlderMessages(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (before: string) =>
      unwrap(
        await api.GET('/api/v1/conversations/{id}/messages', {
          params: { path: { id }, query: { before } },
        }),
      ),
    onSuccess: (older) =>
      client.setQueryData<ThreadPage>(threadKey(id), (page) =>
        page ? { messages: [...older.messages, ...page.messages], next_before: older.next_before } : page,
      ),
  });
}

type ThreadPage = components['schemas']['ConversationMessages'];
type ListPage = components['schemas']['ConversationList'];

export function useReply(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: ReplyRequest) =>
      unwrap(await api.POST('/api/v1/conversations/{id}/messages', { params: { path: { id } }, body })),
    onSuccess: () => client.invalidateQueries({ queryKey: threadKey(id) }),
    // A refusal for the window means our idea of it is stale: the conversation's `open_until` is fetched again.
    onError: () => client.invalidateQueries({ queryKey: oneKey(id) }),
  });
}

export function useUpdateConversation(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: { status?: 'open' | 'closed'; assignee?: string | null }) =>
      unwrap(await api.PATCH('/api/v1/conversations/{id}', { params: { path: { id } }, body })),
    onSuccess: (conversation) => applyConversation(client, conversation),
  });
}

export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) =>
      unwrap(await api.POST('/api/v1/conversations/{id}/read', { params: { path: { id } } })),
    onSuccess: (read) => applyConversation(client, read.conversation),
  });
}

/** Finds the conversation a live-chat notification names: the customer (phone or user id) on the number. */
export async function findConversation(customer: {
  phone: string | null;
  userId: string | null;
  channelAccountId: string;
}): Promise<Conversation | undefined> {
  const q = customer.phone ?? customer.userId;
  if (!q) return undefined;
  const list = unwrap(
    await api.GET('/api/v1/conversations', {
      params: { query: { q, channel_account_id: customer.channelAccountId, per_page: 100 } },
    }),
  );
  return list.conversations.find(
    (c) =>
      (customer.phone !== null && c.customer.phone === customer.phone) ||
      (customer.userId !== null && c.customer.user_id === customer.userId),
  );
}

const byActivity = (a: Conversation, b: Conversation) => b.last_activity_at.localeCompare(a.last_activity_at);
// Waiting longest, as the server orders it: those with something unread first, then the longest silent first.
const byWaiting = (a: Conversation, b: Conversation) =>
  Number(b.unread_count > 0) - Number(a.unread_count > 0) ||
  a.last_activity_at.localeCompare(b.last_activity_at);

/** Whether a conversation belongs in a listing with these filters, as far as the browser can tell. */
function matches(c: Conversation, f: ConversationFilters): boolean | undefined {
  if (f.q !== undefined) return undefined; // the server's search decides
  if (f.status !== undefined && c.status !== f.status) return false;
  if (f.channel_account_id !== undefined && c.channel_account_id !== f.channel_account_id) return false;
  if (f.assignee !== undefined && c.assignee !== (f.assignee === 'none' ? null : f.assignee)) return false;
  if (f.unread && c.unread_count === 0) return false;
  return true;
}

/**
 * A conversation as it now is (an event, or a change's answer) put in every cached place: its own query, and
 * each cached listing, where it is replaced, added or dropped by the listing's filters and kept newest first.
 * A listing the browser cannot decide for (a search, a later page) is fetched again.
 */
export function applyConversation(client: QueryClient, c: Conversation): void {
  client.setQueryData(oneKey(c.id), c);
  for (const [key, list] of client.getQueriesData<ListPage>({ queryKey: [...conversationsKey, 'list'] })) {
    if (!list) continue;
    const filters = key[2] as ConversationFilters;
    const present = list.conversations.some((x) => x.id === c.id);
    const fits = matches(c, filters);
    if (fits === undefined || (filters.page > 1 && !present)) {
      void client.invalidateQueries({ queryKey: key, exact: true });
      continue;
    }
    const others = list.conversations.filter((x) => x.id !== c.id);
    const next = fits ? [...others, c].sort(filters.order === 'waiting' ? byWaiting : byActivity) : others;
    client.setQueryData<ListPage>(key, { ...list, conversations: next });
  }
}

// Statuses arrive out of order at times (a late `delivered` after `read`): a message's status never goes back.
const STATUS_RANK: Record<string, number> = {
  queued: 0,
  scheduled: 0,
  sent: 1,
  delivered: 2,
  read: 3,
  failed: 4,
  cancelled: 4,
};
const newer = (shown: ConversationMessage, event: ConversationMessage) =>
  (STATUS_RANK[event.status ?? ''] ?? 0) < (STATUS_RANK[shown.status ?? ''] ?? 0) ? shown : event;

/** A message as it now is (new, or a status change of one already shown) put in its thread's cache. */
export function applyMessage(client: QueryClient, conversationId: string, m: ConversationMessage): void {
  const same = (x: ConversationMessage) =>
    (m.message_log_id !== null && x.message_log_id === m.message_log_id) ||
    (m.message_log_id === null &&
      m.provider_message_id !== null &&
      x.provider_message_id === m.provider_message_id);
  client.setQueryData<ThreadPage>(threadKey(conversationId), (page) => {
    if (!page) return page;
    const messages = page.messages.some(same)
      ? page.messages.map((x) => (same(x) ? newer(x, m) : x))
      : [...page.messages, m];
    return { ...page, messages };
  });
  if (m.direction !== 'inbound') return;
  // A customer's message moves the window and the counts; they come with the conversation's own event too, but
  // one fetch of the conversation keeps them right if that event is late. A listing that does not hold the
  // conversation yet fetches again.
  void client.invalidateQueries({ queryKey: oneKey(conversationId), exact: true });
  for (const [key, list] of client.getQueriesData<ListPage>({ queryKey: [...conversationsKey, 'list'] })) {
    if (list && !list.conversations.some((x) => x.id === conversationId)) {
      void client.invalidateQueries({ queryKey: key, exact: true });
    }
  }
}
