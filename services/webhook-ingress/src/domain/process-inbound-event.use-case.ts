import type { AccountOwner } from '../data-access/channel-account-lookup';
import type { SplitSummary } from '../data-access/inbound-event.repository';
import type { IngressDeps } from './ingress-deps';
import type { SplitItem, SplitResult } from './inbound-item';
import { liveChatRequests } from './live-chat-requests';
import { splitWebhook } from './split-webhook';

/** Splits a stored body again; it was checked to be JSON when it arrived. */
export function splitStoredBody(rawBody: string, receivedAt: Date): SplitResult {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    return { items: [], skipped: [{ path: 'body', reason: 'not JSON' }] };
  }
  const split = splitWebhook(body, receivedAt);
  // The same report twice in one body is one item.
  const unique = new Map<string, SplitItem>();
  for (const item of split.items) if (!unique.has(item.dedupeKey)) unique.set(item.dedupeKey, item);
  return { items: [...unique.values()], skipped: split.skipped };
}

/** Messaging's answer for every number the items name; throws when it cannot answer (retried later). */
async function ownersOf(deps: IngressDeps, items: SplitItem[]): Promise<Map<string, AccountOwner | null>> {
  const ids = [...new Set(items.map((i) => i.payload.phone_number_id).filter((id) => id !== null))];
  const owners = await Promise.all(ids.map((id) => deps.accounts.ownerOf(id)));
  return new Map(ids.map((id, i) => [id, owners[i]]));
}

function outcomeOf(s: Omit<SplitSummary, 'outcome'>): SplitSummary['outcome'] {
  if (s.unroutableCount > 0) return 'unroutable';
  if (s.itemCount === 0) return 'ignored';
  return s.publishedCount === 0 ? 'duplicate' : 'processed';
}

/**
 * Splits one stored delivery into items and puts each new one in the outbox, with the live-chat notifications
 * it raises, in one transaction. Items of a number messaging does not know are kept back (the event is marked
 * `unroutable`; reprocess it once the number is connected). Account-level changes name only a WABA and go out
 * with tenant_id null: messaging resolves them. `pending` mode is the worker's: it skips an event another
 * worker holds or that is done; `again` is the operator's reprocess, safe to repeat since dedupe keys hold.
 */
export async function processInboundEvent(
  deps: IngressDeps,
  id: string,
  mode: 'pending' | 'again',
): Promise<SplitSummary | undefined> {
  const event = await deps.events.findWithBody(id);
  if (!event || (mode === 'pending' && event.outcome !== 'pending')) return undefined;
  const { items, skipped } = splitStoredBody(event.rawBody, event.receivedAt);
  const owners = await ownersOf(deps, items);
  const ownerOf = (item: SplitItem) =>
    item.payload.phone_number_id === null ? undefined : owners.get(item.payload.phone_number_id);
  const routable = items.filter((item) => ownerOf(item) !== null);
  const unroutable = items.filter((item) => ownerOf(item) === null);
  return deps.dataSource.transaction(async (tx) => {
    const locked = await deps.events.lock(tx, id, mode === 'pending');
    if (!locked || (mode === 'pending' && locked.outcome !== 'pending')) return undefined;
    const outgoing = routable.map((item) => ({ item, tenantId: ownerOf(item)?.tenantId ?? null }));
    const fresh = await deps.items.publish(tx, id, outgoing);
    const newItems = outgoing.filter((o) => fresh.has(o.item.payload.event_id));
    await deps.notifications.insertMany(tx, liveChatRequests(newItems, owners));
    const published = await deps.items.findByKeys(
      tx,
      routable.map((item) => item.dedupeKey),
    );
    const own = [...published.values()].filter((p) => p.inboundEventId === id).length;
    const counts = {
      itemCount: items.length,
      publishedCount: own,
      duplicateCount: published.size - own,
      unroutableCount: unroutable.length,
      skippedCount: skipped.length,
      unroutablePhoneNumberIds: [...new Set(unroutable.map((item) => item.payload.phone_number_id ?? ''))],
    };
    const summary = { ...counts, outcome: outcomeOf(counts) };
    await deps.events.finish(tx, id, summary);
    return summary;
  });
}
