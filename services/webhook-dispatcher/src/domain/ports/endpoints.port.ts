import type { WebhookEventName } from '@bm/contracts';

/** A tenant's endpoint settings as the API shows them (secrets never leave this service). */
export interface EndpointSettings {
  url: string | null;
  events: WebhookEventName[] | null;
  secretSet: boolean;
}

/** dispatcher.endpoints: one endpoint per tenant, its event filter and its sealed signing secrets. */
export interface Endpoints {
  find(tenantId: number): Promise<EndpointSettings | undefined>;
  save(tenantId: number, url: string | null, events: WebhookEventName[] | null): Promise<EndpointSettings>;
  /** Makes the sealed secret the current one; the one it replaces keeps signing until the grace period ends. */
  rotateSecret(tenantId: number, sealed: string, graceMs: number): Promise<void>;
}
