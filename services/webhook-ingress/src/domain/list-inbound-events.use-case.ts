import { paginationOf, type Pagination } from '@bm/contracts';
import type { Outcome } from '../data-access/inbound-event.repository';
import { toInboundEventDto, type InboundEventDto } from './inbound-event.dto';
import type { IngressDeps } from './ingress-deps';

export interface ListInboundEventsQuery {
  outcome?: Outcome;
  page: number;
  per_page: number;
}

/** GET /admin/v1/inbound-events: the audit log, newest first, optionally of one outcome. */
export async function listInboundEvents(
  deps: IngressDeps,
  query: ListInboundEventsQuery,
): Promise<{ events: InboundEventDto[]; pagination: Pagination }> {
  const { items, total } = await deps.events.list(query.outcome, query.page, query.per_page);
  return {
    events: items.map(toInboundEventDto),
    pagination: paginationOf(total, query.page, query.per_page),
  };
}
