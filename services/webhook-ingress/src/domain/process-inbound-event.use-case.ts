import { isTransientFailure, storableJson } from '@bm/platform';
import type { SplitSummary } from './inbound-event';
import type { IngressDeps } from './ingress-deps';
import { AccountLookupRefused, type AccountOwner, type OutgoingItem, type Tx } from './ingress-ports';
import type { SkippedPart, SplitItem, SplitResult } from './inbound-item';
import { splitWebhook } from './split-webhook';

/** A stored body split into items, and how many of its strings had to be made storable. */
export interface StoredBodySplit extends SplitResult {
  replacedTexts: number;
}

/**
 * Splits a stored body again; it was checked to be JSON when it arrived (splitParsedBody).
 */
export function splitStoredBody(rawBody: string, receivedAt: Date): StoredBodySplit {
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody);
  } catch {
    return { items: [], skipped: [{ path: 'body', reason: 'not JSON' }], replacedTexts: 0 };
  }
  return splitParsedBody(parsed, receivedAt);
}

/**
 * Splits a parsed body (which it may change). Text PostgreSQL cannot store (NUL, unpaired surrogates: a
 * customer's message may hold either) is replaced with U+FFFD in the items, so it never holds the body back; the
 * audit log keeps the body as it came.
 */
export function splitParsedBody(parsed: unknown, receivedAt: Date): StoredBodySplit {
  const body = storableJson(parsed);
  const split = splitWebhook(body.value, receivedAt);
  // The same report twice in one body is one item.
  const unique = new Map<string, SplitItem>();
  for (const item of split.items) if (!unique.has(item.dedupeKey)) unique.set(item.dedupeKey, item);
  return { items: [...unique.values()], skipped: split.skipped, replacedTexts: body.replaced };
}

/** Who owns a number: an owner, null when messaging knows no such number, or why it refused to look it up. */
export type Ownership = AccountOwner | null | { refused: string };

const isRefused = (o: Ownership | undefined): o is { refused: string } =>
  typeof o === 'object' && o !== null && 'refused' in o;

/**
 * Messaging's answer for every number the items name; throws when it cannot answer (retried later). A number it
 * refuses to look up (an id no URL can carry) is answered as refused: its items are skipped, the others go on.
 */
export async function ownersOf(deps: IngressDeps, items: SplitItem[]): Promise<Map<string, Ownership>> {
  const ids = [...new Set(items.map((i) => i.payload.phone_number_id).filter((id) => id !== null))];
  const owners = await Promise.all(
    ids.map((id) =>
      deps.accounts.ownerOf(id).catch((err: unknown): Ownership => {
        if (err instanceof AccountLookupRefused) return { refused: err.message };
        throw err;
      }),
    ),
  );
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
  /** Items left out because they could not be published (already removed from `items`). */
  unpublishable?: SkippedPart[];
}

/**
 * Inside the caller's transaction, which holds the events' locks: puts each new item of the events in the outbox
 * (an item in two of them goes out with the first) and records what became of each event. Live-chat requests
 * are messaging's to raise: it knows whether a conversation flow answered the message. Items of a number
 * messaging does not know are kept back (the event is `unroutable`); those of a number it refuses to look up
 * are skipped.
 */
export async function publishSplitEvents(
  deps: IngressDeps,
  tx: Tx,
  events: SplitEvent[],
  owners: Map<string, Ownership>,
): Promise<Array<SplitSummary & { id: string }>> {
  const ownerOf = (item: SplitItem) =>
    item.payload.phone_number_id === null ? undefined : owners.get(item.payload.phone_number_id);
  const tenantOf = (item: SplitItem) => {
    const owner = ownerOf(item);
    return owner && !isRefused(owner) ? owner.tenantId : null;
  };
  const outgoing: OutgoingItem[] = [];
  const keys = new Set<string>();
  const split = events.map((event) => {
    const refused = event.items.filter((item) => isRefused(ownerOf(item)));
    const items = event.items.filter((item) => !isRefused(ownerOf(item)));
    const unpublishable = [
      ...(event.unpublishable ?? []),
      ...refused.map((item) => ({ path: item.path, reason: (ownerOf(item) as { refused: string }).refused })),
    ];
    return { ...event, items, unpublishable };
  });
  for (const event of split) {
    for (const item of event.items) {
      if (ownerOf(item) === null || keys.has(item.dedupeKey)) continue;
      keys.add(item.dedupeKey);
      outgoing.push({ item, tenantId: tenantOf(item), inboundEventId: event.id });
    }
  }
  await deps.items.publish(tx, outgoing);
  const published = await deps.items.findByKeys(tx, [...keys]);
  const summaries = split.map((event) => {
    const unroutable = event.items.filter((item) => ownerOf(item) === null);
    const found = event.items.flatMap((item) => published.get(item.dedupeKey) ?? []);
    const own = found.filter((p) => p.inboundEventId === event.id).length;
    const counts = {
      itemCount: event.items.length,
      publishedCount: own,
      duplicateCount: found.length - own,
      unroutableCount: unroutable.length,
      skippedCount: event.skipped.length + event.unpublishable.length,
      unroutablePhoneNumberIds: [...new Set(unroutable.map((item) => item.payload.phone_number_id ?? ''))],
      skippedItems: event.unpublishable,
    };
    return { id: event.id, ...counts, outcome: outcomeOf(counts) };
  });
  await deps.events.finishMany(tx, summaries);
  return summaries;
}

/**
 * Publishes the items of one event one at a time, each isolated within the transaction: an item the database refuses (an id
 * too long for the index, say) is left out with the reason while the others go out. A failure that may pass
 * (the database going away) still fails the whole, to be retried.
 */
async function publishItemsAlone(
  deps: IngressDeps,
  tx: Tx,
  event: SplitEvent,
  owners: Map<string, Ownership>,
): Promise<SplitEvent> {
  const unpublishable: SkippedPart[] = [];
  const items: SplitItem[] = [];
  for (const item of event.items) {
    const owner =
      item.payload.phone_number_id === null ? undefined : owners.get(item.payload.phone_number_id);
    if (owner === null || isRefused(owner)) {
      items.push(item);
      continue;
    }
    try {
      await deps.unitOfWork.isolated(tx, () =>
        deps.items.publish(tx, [{ item, tenantId: owner?.tenantId ?? null, inboundEventId: event.id }]),
      );
      items.push(item);
    } catch (err) {
      if (isTransientFailure(err)) throw err;
      unpublishable.push({ path: item.path, reason: `not published: ${(err as Error).message}` });
    }
  }
  return { ...event, items, unpublishable: [...(event.unpublishable ?? []), ...unpublishable] };
}

/** Counts, once committed, what an event's split left out. */
export function countSkipped(
  deps: IngressDeps,
  summary: Pick<SplitSummary, 'skippedCount' | 'skippedItems'>,
  replacedTexts: number,
): void {
  const published = summary.skippedItems.length;
  if (summary.skippedCount > published) {
    deps.metrics.skippedItems.inc({ stage: 'split' }, summary.skippedCount - published);
  }
  if (published > 0) deps.metrics.skippedItems.inc({ stage: 'publish' }, published);
  if (replacedTexts > 0) deps.metrics.replacedTexts.inc(replacedTexts);
}

/**
 * Splits one stored delivery into items and publishes them (publishSplitEvents) in one transaction. Account-level
 * changes name only a WABA and go out with tenant_id null: messaging resolves them. `pending` mode is the
 * worker's: it skips an event another worker holds or that is done; `again` is the operator's reprocess, safe
 * to repeat since dedupe keys hold. When publishing the items together fails for a reason that will not pass,
 * they are published one by one so that only the items at fault are left out.
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
  const publish = (oneByOne: boolean) =>
    deps.unitOfWork.transaction(async (tx) => {
      const locked = await deps.events.lock(tx, id, mode === 'pending');
      if (!locked || (mode === 'pending' && locked.outcome !== 'pending')) return undefined;
      const whole: SplitEvent = { id, items: split.items, skipped: split.skipped };
      const ready = oneByOne ? await publishItemsAlone(deps, tx, whole, owners) : whole;
      const [{ id: _id, ...summary }] = await publishSplitEvents(deps, tx, [ready], owners);
      return summary;
    });
  let summary: SplitSummary | undefined;
  try {
    summary = await publish(false);
  } catch (err) {
    if (isTransientFailure(err)) throw err;
    deps.logger.warn('inbound event not published whole, publishing its items one by one', {
      event_id: id,
      error: (err as Error).message,
    });
    summary = await publish(true);
  }
  if (summary) countSkipped(deps, summary, split.replacedTexts);
  return summary;
}
