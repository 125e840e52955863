import type { EntityManager } from 'typeorm';
import type { AccountOwner } from '../data-access/channel-account-lookup';
import type { SplitSummary } from '../data-access/inbound-event.repository';
import type { OutgoingItem } from '../data-access/published-item.repository';
import type { IngressDeps } from './ingress-deps';
import type { SplitItem, SplitResult } from './inbound-item';
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
export async function ownersOf(
  deps: IngressDeps,
  items: SplitItem[],
): Promise<Map<string, AccountOwner | null>> {
  const ids = [...new Set(items.map((i) => i.payload.phone_number_id).filter((id) => id !== null))];
  const owners = await Promise.all(ids.map((id) => deps.accounts.ownerOf(id)));
  return new Map(ids.map((id, i) => [id, owners[i]]));
}

function outcomeOf(s: Omit<SplitSummary, 'outcome'>): SplitSummary['outcome'] {
  if (s.unroutableCount > 0) return 'unroutable';
  if (s.itemCount === 0) return 'ignored';
  return s.publishedCount === 0 ? 'duplicate' : 'processed';
}

/** A stored delivery split into items, about to be published. */
export interface SplitEvent extends SplitResult {
  id: string;
}

/**
 * Inside the caller's transaction, which holds the events' locks: puts each new item of the events in the outbox
 * (an item in two of them goes out with the first) and records what became of each event. Live-chat requests
 * are messaging's to raise: it knows whether a conversation flow answered the message. Items of a number messaging does not know are kept back (the event is `unroutable`).
 */
export async function publishSplitEvents(
  deps: IngressDeps,
  tx: EntityManager,
  events: SplitEvent[],
  owners: Map<string, AccountOwner | null>,
): Promise<Array<SplitSummary & { id: string }>> {
  const ownerOf = (item: SplitItem) =>
    item.payload.phone_number_id === null ? undefined : owners.get(item.payload.phone_number_id);
  const outgoing: OutgoingItem[] = [];
  const keys = new Set<string>();
  for (const event of events) {
    for (const item of event.items) {
      if (ownerOf(item) === null || keys.has(item.dedupeKey)) continue;
      keys.add(item.dedupeKey);
      outgoing.push({ item, tenantId: ownerOf(item)?.tenantId ?? null, inboundEventId: event.id });
    }
  }
  await deps.items.publish(tx, outgoing);
  const published = await deps.items.findByKeys(tx, [...keys]);
  const summaries = events.map((event) => {
    const unroutable = event.items.filter((item) => ownerOf(item) === null);
    const found = event.items.flatMap((item) => published.get(item.dedupeKey) ?? []);
    const own = found.filter((p) => p.inboundEventId === event.id).length;
    const counts = {
      itemCount: event.items.length,
      publishedCount: own,
      duplicateCount: found.length - own,
      unroutableCount: unroutable.length,
      skippedCount: event.skipped.length,
      unroutablePhoneNumberIds: [...new Set(unroutable.map((item) => item.payload.phone_number_id ?? ''))],
    };
    return { id: event.id, ...counts, outcome: outcomeOf(counts) };
  });
  await deps.events.finishMany(tx, summaries);
  return summaries;
}

/**
 * Splits one stored delivery into items and publishes them (publishSplitEvents) in one transaction. Account-level
 * changes name only a WABA and go out with tenant_id null: messaging resolves them. `pending` mode is the
 * worker's: it skips an event another worker holds or that is done; `again` is the operator's reprocess, safe
 * to repeat since dedupe keys hold.
 */
export async function processInboundEvent(
  deps: IngressDeps,
  id: string,
  mode: 'pending' | 'again',
): Promise<SplitSummary | undefined> {
  const event = await deps.events.findWithBody(id);
  if (!event || (mode === 'pending' && event.outcome !== 'pending')) return undefined;
  const split = splitStoredBody(event.rawBody, event.receivedAt);
  const owners = await ownersOf(deps, split.items);
  return deps.dataSource.transaction(async (tx) => {
    const locked = await deps.events.lock(tx, id, mode === 'pending');
    if (!locked || (mode === 'pending' && locked.outcome !== 'pending')) return undefined;
    const [{ id: _id, ...summary }] = await publishSplitEvents(deps, tx, [{ id, ...split }], owners);
    return summary;
  });
}
