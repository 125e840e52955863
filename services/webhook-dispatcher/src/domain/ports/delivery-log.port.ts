import type { WebhookDeliveriesQuery, WebhookDeliveryStatus, WebhookEventName } from '@bm/contracts';

export interface DeliveryView {
  id: string;
  eventId: string;
  event: WebhookEventName;
  status: WebhookDeliveryStatus;
  createdAt: Date;
  attempts: AttemptView[];
  endpointId: string | null;
  /** Where the last attempt went, or else the endpoint's URL now (null when removed before any attempt). */
  url: string | null;
  /** The stored body, as every attempt sends it. */
  body: string;
}

export interface AttemptView {
  attempt: number;
  at: Date;
  durationMs: number | null;
  httpStatus: number | null;
  error: string | null;
  responseExcerpt: string | null;
}

export interface EndpointStats {
  delivered: number;
  failed: number;
  pending: number;
  lastError: { at: Date; deliveryId: string; httpStatus: number | null; error: string } | null;
}

/** The health monitor's reads of deliveries and attempts, and redelivery. */
export interface DeliveryLog {
  /** One page of the tenant's deliveries, newest first, each with its attempts in order; and the total. */
  list(tenantId: number, q: WebhookDeliveriesQuery): Promise<{ total: number; deliveries: DeliveryView[] }>;
  /** Over the tenant's deliveries, or one endpoint's. */
  stats(tenantId: number, windowHours: number, endpointId?: string): Promise<EndpointStats>;
  /** A new pending delivery of the same event (same event id); undefined when the delivery is not the tenant's. */
  redeliver(
    tenantId: number,
    deliveryId: string,
    newId: string,
  ): Promise<{ deliveryId: string; eventId: string } | undefined>;
}
