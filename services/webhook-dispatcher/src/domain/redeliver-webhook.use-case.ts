import { ULID_PATTERN, type WebhookRedeliveryDto } from '@bm/contracts';
import { AppError, newUlid } from '@bm/platform';
import type { DispatcherDeps } from './dispatcher-deps';

/** Sends a logged delivery's event again as a new delivery: same event id, fresh timestamp and signature. */
export async function redeliverWebhook(
  deps: DispatcherDeps,
  tenantId: number,
  deliveryId: string,
): Promise<WebhookRedeliveryDto> {
  const created = ULID_PATTERN.test(deliveryId)
    ? await deps.deliveryLog.redeliver(tenantId, deliveryId, newUlid())
    : undefined;
  if (created === undefined) throw new AppError('DELIVERY_NOT_FOUND');
  deps.wakeWorker();
  return { delivery_id: created.deliveryId, event_id: created.eventId };
}
