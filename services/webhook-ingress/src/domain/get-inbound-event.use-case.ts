import { AppError } from '@bm/platform';
import type { SkippedPart } from './inbound-item';
import { inboundEventIdOf, toInboundEventDto, type InboundEventDto } from './inbound-event.dto';
import type { IngressDeps } from './ingress-deps';
import { splitStoredBody } from './process-inbound-event.use-case';

/** What became of one item of the body: `published` by this delivery, `duplicate` of an earlier one, ... */
export interface InboundItemView {
  path: string;
  routing_key: string;
  dedupe_key: string;
  phone_number_id: string | null;
  state: 'published' | 'duplicate' | 'unroutable' | 'pending';
  /** The event id the item went out with (its AMQP messageId). */
  item_event_id: string | null;
  published_by_event_id: string | null;
}

export interface InboundEventDetailDto extends InboundEventDto {
  request_id: string | null;
  headers: Record<string, unknown>;
  raw_body: string;
  items: InboundItemView[];
  skipped: SkippedPart[];
  /** Other deliveries of the same bytes (upstream retries). */
  same_body_event_ids: string[];
}

/**
 * GET /admin/v1/inbound-events/{id}: the delivery as received and, item by item, what became of it. The item
 * view is derived from the stored body and the published items, so it is never out of step with them.
 */
export async function getInboundEvent(deps: IngressDeps, rawId: string): Promise<InboundEventDetailDto> {
  const event = await deps.events.findWithBody(inboundEventIdOf(rawId));
  if (!event) throw new AppError('NOT_FOUND', 'Inbound event not found');
  const { items, skipped } = splitStoredBody(event.rawBody, event.receivedAt);
  const [published, sameBody] = await Promise.all([
    deps.items.findByKeys(
      deps.dataSource,
      items.map((i) => i.dedupeKey),
    ),
    deps.events.sameBody(event.bodySha256, event.id),
  ]);
  const unroutable = new Set(event.unroutablePhoneNumberIds);
  const views = items.map((item): InboundItemView => {
    const p = published.get(item.dedupeKey);
    const phone = item.payload.phone_number_id;
    const missing = phone !== null && unroutable.has(phone) ? 'unroutable' : 'pending';
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
    skipped,
    same_body_event_ids: sameBody,
  };
}
