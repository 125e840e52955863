import type { InboundEventDetailDto, InboundItemView } from '@bm/contracts';
import { AppError } from '@bm/platform';
import { inboundEventIdOf, toInboundEventDto } from './inbound-event.dto';
import type { IngressDeps } from './ingress-deps';
import { splitStoredBody } from './process-inbound-event.use-case';

/**
 * GET /admin/v1/inbound-events/{id}: the delivery as received and, item by item, what became of it. The item
 * view is derived from the stored body and the published items (those that went through the outbox, and those
 * sent on receipt that the row names), so it is never out of step with them; items that could not be published
 * are recorded with their reason when it happened.
 */
export async function getInboundEvent(deps: IngressDeps, rawId: string): Promise<InboundEventDetailDto> {
  const event = await deps.events.findWithBody(inboundEventIdOf(rawId));
  if (!event) throw new AppError('NOT_FOUND', 'Inbound event not found');
  const { items, skipped } = splitStoredBody(event.rawBody, event.receivedAt);
  const [published, sameBody] = await Promise.all([
    deps.unitOfWork.transaction((tx) =>
      deps.items.findByKeys(
        tx,
        items.map((i) => i.dedupeKey),
      ),
    ),
    deps.events.sameBody(event.bodySha256, event.id),
  ]);
  const unroutable = new Set(event.unroutablePhoneNumberIds);
  const unpublishable = new Set(event.skippedItems.map((s) => s.path));
  const views = items.map((item): InboundItemView => {
    const sent = event.sentItems?.[item.dedupeKey];
    const p =
      sent === undefined ? published.get(item.dedupeKey) : { itemEventId: sent, inboundEventId: event.id };
    const phone = item.payload.phone_number_id;
    const missing = unpublishable.has(item.path)
      ? 'skipped'
      : phone !== null && unroutable.has(phone)
        ? 'unroutable'
        : 'pending';
    return {
      path: item.path,
      routing_key: item.routingKey,
      dedupe_key: item.dedupeKey,
      phone_number_id: phone,
      state: p ? (p.inboundEventId === event.id ? 'published' : 'duplicate') : missing,
      item_event_id: p?.itemEventId ?? null,
      published_by_event_id: p?.inboundEventId ?? null,
    };
  });
  return {
    ...toInboundEventDto(event),
    request_id: event.requestId,
    headers: event.headers,
    raw_body: event.rawBody,
    items: views,
    // What the split could not read is derived from the body; what could not be published was recorded.
    skipped: [...skipped, ...event.skippedItems],
    same_body_event_ids: sameBody,
  };
}
