import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import {
  applyConversation,
  applyMessage,
  conversationsKey,
  type Conversation,
  type ConversationMessage,
} from './conversations';

const EVENTS_URL = '/api/v1/conversations/events';
/** After a refused stream (a 404 before the endpoint exists, a 5xx), the next try waits this long, doubling. */
const FIRST_RETRY_MS = 15_000;
const MAX_RETRY_MS = 120_000;

function parse<T>(data: unknown): T | undefined {
  try {
    return JSON.parse(String(data)) as T;
  } catch {
    return undefined;
  }
}

/**
 * The tenant's conversation changes as server-sent events, applied to the cached list and threads. Answers
 * whether the stream is up: while it is not, the inbox's queries poll instead (FALLBACK_POLL_MS). A stream the
 * server refuses is tried again after a quiet, growing pause, never in a tight loop.
 */
export function useConversationEvents(): boolean {
  const client = useQueryClient();
  const [live, setLive] = useState(false);

  useEffect(() => {
    let source: EventSource | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let delay = FIRST_RETRY_MS;
    let stopped = false;

    const connect = () => {
      source = new EventSource(EVENTS_URL);
      source.onopen = () => {
        delay = FIRST_RETRY_MS;
        setLive(true);
        // Whatever changed while the stream was down (or before it opened) is fetched once.
        void client.invalidateQueries({ queryKey: conversationsKey });
      };
      source.addEventListener('message', (e: MessageEvent) => {
        const data = parse<{ conversation_id?: string; message?: ConversationMessage }>(e.data);
        if (data?.conversation_id && data.message) applyMessage(client, data.conversation_id, data.message);
      });
      source.addEventListener('conversation', (e: MessageEvent) => {
        const data = parse<{ conversation?: Conversation }>(e.data);
        if (data?.conversation) applyConversation(client, data.conversation);
      });
      source.onerror = () => {
        setLive(false);
        // CONNECTING: the browser reconnects by itself (with Last-Event-ID). CLOSED: it gave up; we try later.
        if (source?.readyState !== EventSource.CLOSED || stopped) return;
        source = undefined;
        timer = setTimeout(connect, delay);
        delay = Math.min(delay * 2, MAX_RETRY_MS);
      };
    };

    connect();
    return () => {
      stopped = true;
      clearTimeout(timer);
      source?.close();
    };
  }, [client]);

  return live;
}
