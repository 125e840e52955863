import type { DataSource } from 'typeorm';
import type { WebhookEventName } from '@bm/contracts';
import { queryRows } from '@bm/platform';

import type { Endpoints, EndpointSettings } from '../domain/ports/endpoints.port';

interface Row {
  url: string | null;
  events: WebhookEventName[] | null;
  secret_set: boolean;
}

const toSettings = (r: Row): EndpointSettings => ({ url: r.url, events: r.events, secretSet: r.secret_set });
const RETURNING = 'RETURNING url, events, secret_sealed IS NOT NULL AS secret_set';

/** dispatcher.endpoints: one endpoint per tenant, its event filter and its sealed signing secrets. */
export class EndpointRepository implements Endpoints {
  constructor(private readonly ds: DataSource) {}

  async find(tenantId: number): Promise<EndpointSettings | undefined> {
    const [row] = await queryRows<Row>(
      this.ds,
      `SELECT url, events, secret_sealed IS NOT NULL AS secret_set FROM dispatcher.endpoints WHERE tenant_id = $1`,
      [tenantId],
    );
    return row && toSettings(row);
  }

  async save(
    tenantId: number,
    url: string | null,
    events: WebhookEventName[] | null,
  ): Promise<EndpointSettings> {
    const [row] = await queryRows<Row>(
      this.ds,
      `INSERT INTO dispatcher.endpoints (tenant_id, url, events) VALUES ($1, $2, $3)
       ON CONFLICT (tenant_id) DO UPDATE SET url = EXCLUDED.url, events = EXCLUDED.events, updated_at = now()
       ${RETURNING}`,
      [tenantId, url, events],
    );
    return toSettings(row);
  }

  /**
   * Makes the sealed secret the current one; the one it replaces keeps signing until the grace period ends.
   * A rotation during a grace period drops the oldest secret: at most two sign at once.
   */
  async rotateSecret(tenantId: number, sealed: string, graceMs: number): Promise<void> {
    await this.ds.query(
      `INSERT INTO dispatcher.endpoints (tenant_id, secret_sealed) VALUES ($1, $2)
       ON CONFLICT (tenant_id) DO UPDATE SET
         previous_secret_sealed = endpoints.secret_sealed,
         previous_secret_expires_at = CASE WHEN endpoints.secret_sealed IS NULL THEN NULL
                                           ELSE now() + $3 * interval '1 millisecond' END,
         secret_sealed = EXCLUDED.secret_sealed,
         updated_at = now()`,
      [tenantId, sealed, graceMs],
    );
  }
}
