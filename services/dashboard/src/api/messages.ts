import {
  FINAL_STATUSES,
  getMessage,
  listMessages,
  sendMessage,
  type ListMessagesQuery,
  type SendMessageRequest,
} from '@bm/client';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api } from './client';

const messagesKey = ['messages'] as const;

/** How often the sent list is read again while its tab is visible, so statuses move without a reload. */
export const MESSAGES_REFRESH_MS = 5_000;

/** A page of the sent list, read again every few seconds while the tab is visible (not in the background). */
export function useMessages(query: ListMessagesQuery) {
  return useQuery({
    queryKey: [...messagesKey, query],
    queryFn: () => listMessages(api, query),
    placeholderData: keepPreviousData,
    refetchInterval: MESSAGES_REFRESH_MS,
    refetchIntervalInBackground: false,
  });
}

/** One message, polled while its status can still change, so its page follows it without a reload. */
export function useMessage(id: number) {
  return useQuery({
    queryKey: [...messagesKey, 'one', id],
    queryFn: () => getMessage(api, id),
    refetchInterval: (q) => (q.state.data && FINAL_STATUSES.includes(q.state.data.status) ? false : 1_000),
  });
}

export function useSendMessage() {
  return useMutation({
    mutationFn: (body: SendMessageRequest) => sendMessage(api, body, { idempotencyKey: newIdempotencyKey() }),
  });
}

// One key per submission: a retried request (a flaky network) never sends twice. getRandomValues works on plain
// HTTP too, where randomUUID does not.
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `dashboard-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}
