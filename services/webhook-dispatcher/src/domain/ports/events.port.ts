import type { WebhookEventName } from '@bm/contracts';
import type { ClaimedDelivery } from './deliveries.port';

export interface NewWebhookEvent {
  /** `evt_<ULID>`; a second insert of the same id is dropped. */
  id: string;
  tenantId: number;
  event: WebhookEventName;
  /** The exact JSON text every attempt sends. */
  body: string;
  deliveryId: string;
  /**
   * The one endpoint to deliver to, whatever its event filter (the test ping goes to the default endpoint).
   * Absent: every enabled endpoint of the tenant whose filter admits the event, one delivery each.
   */
  endpointId?: string;
  /** The trace of the domain event, continued by every attempt. */
  traceparent?: string;
}

/**
 * The first delivery of a stored event (the default endpoint's, or else the oldest endpoint's; each endpoint that
 * takes the event has one): its id, and whether every delivery was leased for this replica's worker as stored.
 */
export interface StoredDelivery {
  deliveryId: string;
  leased: boolean;
}

/**
 * Where the deliveries leased as they are stored go: this replica's worker, which reserves room for them before the
 * statement (so it never runs more than its concurrency) and starts those leased.
 */
export interface LeaseTaker {
  /** Reserves up to `max` attempt slots; answers how many (0: store without leasing). */
  reserve(max: number): number;
  /** Starts the deliveries leased on a reservation of `reserved` slots and frees the rest of it. */
  adopt(leased: ClaimedDelivery[], reserved: number): void;
}

export interface LeaseSettings {
  perEndpoint: number;
  leaseMs: number;
}

/** dispatcher.events: the events to deliver, each stored once with its first delivery. */
export interface WebhookEvents {
  /** Records one event as part of the next batch (one statement for every event consumed meanwhile). */
  recordWithDelivery(event: NewWebhookEvent): Promise<StoredDelivery | undefined>;
  /** Records the events and their deliveries in one statement; per event its delivery, or undefined. */
  recordWithDeliveries(events: NewWebhookEvent[]): Promise<Array<StoredDelivery | undefined>>;
}
