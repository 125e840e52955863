import { paginationOf, type InboundEventListDto, type ListInboundEventsQuery } from '@bm/contracts';
import { toInboundEventDto } from './inbound-event.dto';
import type { IngressDeps } from './ingress-deps';

/** GET /admin/v1/inbound-events: the audit log, newest first, optionally of one outcome. */
export async function listInboundEvents(
  deps: IngressDeps,
  query: ListInboundEventsQuery,
): Promise<InboundEventListDto> {
  const { items, total } = await deps.events.list(query.outcome, query.page, query.per_page);
  return {
    events: items.map(toInboundEventDto),
    pagination: paginationOf(total, query.page, query.per_page),
  };
}
