import type { DataSource } from 'typeorm';
import type { WebhookEventName } from '@bm/contracts';
import { queryRows } from '@bm/platform';

import type {
  EndpointChanges,
  EndpointRecord,
  Endpoints,
  EndpointSettings,
  NewEndpoint,
} from '../domain/ports/endpoints.port';

interface Row {
  id: string;
  url: string | null;
  events: WebhookEventName[] | null;
  secret_set: boolean;
}

interface RecordRow extends Row {
  url: string;
  description: string | null;
  enabled: boolean;
  is_default: boolean;
  created_at: Date;
  updated_at: Date;
}

const toSettings = (r: Row): EndpointSettings => ({
  id: r.id,
  url: r.url,
  events: r.events,
  secretSet: r.secret_set,
});
const toRecord = (r: RecordRow): EndpointRecord => ({
  ...toSettings(r),
  url: r.url,
  description: r.description,
  enabled: r.enabled,
  isDefault: r.is_default,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const SETTINGS = 'id, url, events, secret_sealed IS NOT NULL AS secret_set';
const RECORD = `${SETTINGS}, description, enabled, is_default, created_at, updated_at`;
/** The rotation: the current secret keeps signing until the grace period ends (at most two sign at once). */
const ROTATE = `previous_secret_sealed = endpoints.secret_sealed,
  previous_secret_expires_at = CASE WHEN endpoints.secret_sealed IS NULL THEN NULL
                                    ELSE now() + $3 * interval '1 millisecond' END`;

/** dispatcher.endpoints: a tenant's endpoints, their event filters and their sealed signing secrets. */
export class EndpointRepository implements Endpoints {
  constructor(private readonly ds: DataSource) {}

  async find(tenantId: number): Promise<EndpointSettings | undefined> {
    const [row] = await queryRows<Row>(
      this.ds,
      `SELECT ${SETTINGS} FROM dispatcher.endpoints WHERE tenant_id = $1 AND is_default`,
      [tenantId],
    );
    return row && toSettings(row);
  }

  async save(
    tenantId: number,
    url: string | null,
    events: WebhookEventName[] | null,
    newId: string,
  ): Promise<EndpointSettings> {
    const [row] = await queryRows<Row>(
      this.ds,
      `INSERT INTO dispatcher.endpoints (id, tenant_id, url, events, is_default) VALUES ($4, $1, $2, $3, true)
       ON CONFLICT (tenant_id) WHERE is_default
       DO UPDATE SET url = EXCLUDED.url, events = EXCLUDED.events, updated_at = now()
       RETURNING ${SETTINGS}`,
      [tenantId, url, events, newId],
    );
    return toSettings(row);
  }

  async rotateSecret(tenantId: number, sealed: string, graceMs: number, newId: string): Promise<void> {
    await this.ds.query(
      `INSERT INTO dispatcher.endpoints (id, tenant_id, secret_sealed, is_default) VALUES ($4, $1, $2, true)
       ON CONFLICT (tenant_id) WHERE is_default DO UPDATE SET ${ROTATE},
         secret_sealed = EXCLUDED.secret_sealed, updated_at = now()`,
      [tenantId, sealed, graceMs, newId],
    );
  }

  async list(tenantId: number): Promise<EndpointRecord[]> {
    const rows = await queryRows<RecordRow>(
      this.ds,
      `SELECT ${RECORD} FROM dispatcher.endpoints WHERE tenant_id = $1 AND url IS NOT NULL
        ORDER BY is_default DESC, created_at, id`,
      [tenantId],
    );
    return rows.map(toRecord);
  }

  async get(tenantId: number, id: string): Promise<EndpointRecord | undefined> {
    const [row] = await queryRows<RecordRow>(
      this.ds,
      `SELECT ${RECORD} FROM dispatcher.endpoints WHERE tenant_id = $1 AND id = $2 AND url IS NOT NULL`,
      [tenantId, id],
    );
    return row && toRecord(row);
  }

  /**
   * Under a per-tenant lock, so two creates cannot both pass the cap. A default endpoint without a URL (its
   * settings cleared, or a secret made before any URL) is taken over: the new endpoint becomes the default.
   */
  async create(tenantId: number, e: NewEndpoint, max: number): Promise<EndpointRecord | undefined> {
    return this.ds.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext('dispatcher.endpoints'), $1)`, [tenantId]);
      const [{ n }] = await queryRows<{ n: number }>(
        tx,
        `SELECT count(*)::int AS n FROM dispatcher.endpoints WHERE tenant_id = $1 AND url IS NOT NULL`,
        [tenantId],
      );
      if (n >= max) return undefined;
      const [taken] = await queryRows<RecordRow>(
        tx,
        `UPDATE dispatcher.endpoints
            SET url = $2, events = $3, description = $4, enabled = true, secret_sealed = $5,
                previous_secret_sealed = NULL, previous_secret_expires_at = NULL, created_at = now(),
                updated_at = now()
          WHERE tenant_id = $1 AND is_default AND url IS NULL
        RETURNING ${RECORD}`,
        [tenantId, e.url, e.events, e.description, e.sealedSecret],
      );
      if (taken) return toRecord(taken);
      const [row] = await queryRows<RecordRow>(
        tx,
        `INSERT INTO dispatcher.endpoints (id, tenant_id, url, events, description, secret_sealed, is_default)
         VALUES ($2, $1, $3, $4, $5, $6,
                 NOT EXISTS (SELECT 1 FROM dispatcher.endpoints WHERE tenant_id = $1 AND is_default))
         RETURNING ${RECORD}`,
        [tenantId, e.id, e.url, e.events, e.description, e.sealedSecret],
      );
      return toRecord(row);
    });
  }

  async update(tenantId: number, id: string, c: EndpointChanges): Promise<EndpointRecord | undefined> {
    const [row] = await queryRows<RecordRow>(
      this.ds,
      `UPDATE dispatcher.endpoints
          SET url = CASE WHEN $3 THEN $4 ELSE url END,
              events = CASE WHEN $5 THEN $6::text[] ELSE events END,
              description = CASE WHEN $7 THEN $8 ELSE description END,
              enabled = coalesce($9, enabled),
              updated_at = now()
        WHERE tenant_id = $1 AND id = $2 AND url IS NOT NULL
      RETURNING ${RECORD}`,
      [
        tenantId,
        id,
        c.url !== undefined,
        c.url ?? null,
        c.events !== undefined,
        c.events ?? null,
        c.description !== undefined,
        c.description ?? null,
        c.enabled ?? null,
      ],
    );
    return row && toRecord(row);
  }

  async remove(tenantId: number, id: string): Promise<boolean> {
    return this.ds.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext('dispatcher.endpoints'), $1)`, [tenantId]);
      const [gone] = await queryRows<{ is_default: boolean }>(
        tx,
        `DELETE FROM dispatcher.endpoints WHERE tenant_id = $1 AND id = $2 AND url IS NOT NULL
         RETURNING is_default`,
        [tenantId, id],
      );
      if (!gone) return false;
      if (gone.is_default) {
        await tx.query(
          `UPDATE dispatcher.endpoints SET is_default = true, updated_at = now()
            WHERE id = (SELECT id FROM dispatcher.endpoints WHERE tenant_id = $1 AND url IS NOT NULL
                         ORDER BY created_at, id LIMIT 1)`,
          [tenantId],
        );
      }
      return true;
    });
  }

  async rotateEndpointSecret(
    tenantId: number,
    id: string,
    sealed: string,
    graceMs: number,
  ): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      this.ds,
      `UPDATE dispatcher.endpoints SET ${ROTATE}, secret_sealed = $4, updated_at = now()
        WHERE tenant_id = $1 AND id = $2 AND url IS NOT NULL
       RETURNING id`,
      [tenantId, id, graceMs, sealed],
    );
    return rows.length > 0;
  }
}
