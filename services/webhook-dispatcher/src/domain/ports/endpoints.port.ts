import type { WebhookEventName } from '@bm/contracts';

/** A tenant's default endpoint as the settings API shows it (secrets never leave this service). */
export interface EndpointSettings {
  id: string;
  url: string | null;
  events: WebhookEventName[] | null;
  secretSet: boolean;
}

/** One of a tenant's endpoints as the endpoints API shows it. */
export interface EndpointRecord extends EndpointSettings {
  url: string;
  description: string | null;
  enabled: boolean;
  isDefault: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewEndpoint {
  id: string;
  url: string;
  events: WebhookEventName[] | null;
  description: string | null;
  sealedSecret: string;
}

export interface EndpointChanges {
  url?: string;
  events?: WebhookEventName[] | null;
  description?: string | null;
  enabled?: boolean;
}

/**
 * dispatcher.endpoints: a tenant's endpoints, each with its event filter and sealed signing secrets. The tenant's
 * default endpoint (its first) is the one of /api/v1/webhooks/settings.
 */
export interface Endpoints {
  /** The tenant's default endpoint, when it has one. */
  find(tenantId: number): Promise<EndpointSettings | undefined>;
  /** Sets the default endpoint's URL and filter (created with `newId` when there is none). */
  save(
    tenantId: number,
    url: string | null,
    events: WebhookEventName[] | null,
    newId: string,
  ): Promise<EndpointSettings>;
  /** Rotates the default endpoint's secret (created with `newId` when there is none). */
  rotateSecret(tenantId: number, sealed: string, graceMs: number, newId: string): Promise<void>;
  /** The tenant's endpoints with a URL, the default first, then oldest first. */
  list(tenantId: number): Promise<EndpointRecord[]>;
  get(tenantId: number, id: string): Promise<EndpointRecord | undefined>;
  /** Adds an endpoint unless the tenant has `max` already (then undefined); the first becomes the default. */
  create(tenantId: number, endpoint: NewEndpoint, max: number): Promise<EndpointRecord | undefined>;
  update(tenantId: number, id: string, changes: EndpointChanges): Promise<EndpointRecord | undefined>;
  /** Removes it; when it was the default, the oldest remaining endpoint becomes the default. */
  remove(tenantId: number, id: string): Promise<boolean>;
  /** Rotates one endpoint's secret (the previous one signs beside it for the grace period); false when none. */
  rotateEndpointSecret(tenantId: number, id: string, sealed: string, graceMs: number): Promise<boolean>;
}
