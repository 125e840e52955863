import type { InboundEventDto } from '@bm/contracts';
import { AppError } from '@bm/platform';
import { inboundEventIdOf, toInboundEventDto } from './inbound-event.dto';
import type { IngressDeps } from './ingress-deps';
import { processInboundEvent } from './process-inbound-event.use-case';

/**
 * POST /admin/v1/inbound-events/{id}/reprocess: splits the stored body again now, e.g. once the number of an
 * `unroutable` event is connected. Safe to repeat: items that went out before keep their dedupe keys.
 */
export async function reprocessInboundEvent(deps: IngressDeps, rawId: string): Promise<InboundEventDto> {
  const id = inboundEventIdOf(rawId);
  if (!(await deps.events.find(id))) throw new AppError('NOT_FOUND', 'Inbound event not found');
  try {
    await processInboundEvent(deps, id, 'again');
  } catch (err) {
    deps.logger.warn('reprocess failed', { event_id: id, error: (err as Error).message });
    throw new AppError('SERVICE_UNAVAILABLE');
  }
  const event = await deps.events.find(id);
  if (!event) throw new AppError('NOT_FOUND', 'Inbound event not found');
  return toInboundEventDto(event);
}
