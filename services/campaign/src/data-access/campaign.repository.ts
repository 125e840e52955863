import type { CampaignStatus, HeaderMediaInput, TemplateComponent } from '@bm/contracts';
import { queryRows } from '@bm/platform';
import type { DataSource, EntityManager } from 'typeorm';

type Db = DataSource | EntityManager;

export interface Campaign {
  id: string;
  tenantId: number;
  channelAccountId: string;
  name: string | null;
  status: CampaignStatus;
  templateName: string;
  templateLanguage: string;
  templateComponents: TemplateComponent[];
  templateParams: string[];
  headerMedia: HeaderMediaInput | null;
  requestedCount: number;
  totalCount: number;
  scheduledAt: Date | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  failureReason: string | null;
  campaignGroupId: string | null;
  partNumber: number | null;
  partsTotal: number | null;
  idempotencyKey: string | null;
  uploadId: string | null;
  uploadOffset: number;
}

export type NewCampaign = Omit<
  Campaign,
  'createdAt' | 'startedAt' | 'finishedAt' | 'failureReason' | 'totalCount'
>;

interface Row {
  id: string;
  tenant_id: number;
  channel_account_id: string;
  name: string | null;
  status: CampaignStatus;
  template_name: string;
  template_language: string;
  template_components: TemplateComponent[];
  template_params: string[];
  header_media: HeaderMediaInput | null;
  requested_count: number;
  total_count: number;
  scheduled_at: Date | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  failure_reason: string | null;
  campaign_group_id: string | null;
  part_number: number | null;
  parts_total: number | null;
  idempotency_key: string | null;
  upload_id: string | null;
  upload_offset: number;
}

const toCampaign = (r: Row): Campaign => ({
  id: r.id,
  tenantId: r.tenant_id,
  channelAccountId: r.channel_account_id,
  name: r.name,
  status: r.status,
  templateName: r.template_name,
  templateLanguage: r.template_language,
  templateComponents: r.template_components,
  templateParams: r.template_params,
  headerMedia: r.header_media,
  requestedCount: r.requested_count,
  totalCount: r.total_count,
  scheduledAt: r.scheduled_at,
  createdAt: r.created_at,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  failureReason: r.failure_reason,
  campaignGroupId: r.campaign_group_id,
  partNumber: r.part_number,
  partsTotal: r.parts_total,
  idempotencyKey: r.idempotency_key,
  uploadId: r.upload_id,
  uploadOffset: r.upload_offset,
});

/** Recipient counts of a campaign by where they stand. */
export interface RecipientCounts {
  sent: number;
  failed: number;
  /** Pending and not yet handed to messaging. */
  unrequested: number;
  /** Handed to messaging, no answer yet. */
  inFlight: number;
}

/** Statuses the dispatcher works on. */
/** Where campaigns' triggers announce a campaign the dispatcher has to step, and when (epoch ms). */
export const DISPATCH_CHANNEL = 'campaign_dispatch';

const ACTIVE = `('pending', 'scheduled', 'processing', 'throttled')`;

export class CampaignRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Campaigns not yet finished, counted by status. */
  async countActiveByStatus(): Promise<Array<{ status: string; count: number }>> {
    const rows: Array<{ status: string; count: string }> = await this.dataSource.query(
      `SELECT status, count(*) AS count FROM campaign.campaigns
        WHERE status IN ('preparing', 'pending', 'scheduled', 'processing', 'throttled', 'paused')
        GROUP BY status`,
    );
    return rows.map((r) => ({ status: r.status, count: Number(r.count) }));
  }

  async insertUpload(tx: EntityManager, id: string, tenantId: number, body: string): Promise<void> {
    await tx.query('INSERT INTO campaign.uploads (id, tenant_id, body) VALUES ($1, $2, $3)', [
      id,
      tenantId,
      body,
    ]);
  }

  async insert(tx: EntityManager, c: NewCampaign): Promise<Campaign> {
    const rows: Row[] = await tx.query(
      `INSERT INTO campaign.campaigns
         (id, tenant_id, channel_account_id, name, status, template_name, template_language, template_components,
          template_params, header_media, requested_count, scheduled_at, campaign_group_id, part_number,
          parts_total, idempotency_key, upload_id, upload_offset)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18) RETURNING *`,
      [
        c.id,
        c.tenantId,
        c.channelAccountId,
        c.name,
        c.status,
        c.templateName,
        c.templateLanguage,
        JSON.stringify(c.templateComponents),
        JSON.stringify(c.templateParams),
        c.headerMedia ? JSON.stringify(c.headerMedia) : null,
        c.requestedCount,
        c.scheduledAt,
        c.campaignGroupId,
        c.partNumber,
        c.partsTotal,
        c.idempotencyKey,
        c.uploadId,
        c.uploadOffset,
      ],
    );
    return toCampaign(rows[0]);
  }

  /** A tenant's campaign; undefined for an unknown id or another tenant's. */
  async findForTenant(
    id: string,
    tenantId: number,
    db: Db = this.dataSource,
    lock = false,
  ): Promise<Campaign | undefined> {
    const rows: Row[] = await db.query(
      `SELECT * FROM campaign.campaigns WHERE id = $1 AND tenant_id = $2${lock ? ' FOR UPDATE' : ''}`,
      [id, tenantId],
    );
    return rows[0] ? toCampaign(rows[0]) : undefined;
  }

  async listGroup(db: Db, groupId: string): Promise<Campaign[]> {
    const rows: Row[] = await db.query(
      'SELECT * FROM campaign.campaigns WHERE campaign_group_id = $1 ORDER BY part_number',
      [groupId],
    );
    return rows.map(toCampaign);
  }

  /** The campaigns of an upload, locked: preparation writes all their recipients at once. */
  async lockUploadCampaigns(tx: EntityManager, uploadId: string): Promise<Campaign[]> {
    const rows: Row[] = await tx.query(
      `SELECT * FROM campaign.campaigns WHERE upload_id = $1 ORDER BY part_number NULLS FIRST FOR UPDATE`,
      [uploadId],
    );
    return rows.map(toCampaign);
  }

  /** Locks a stored list for preparation; undefined when it is gone or another replica holds it. */
  async lockUpload(tx: EntityManager, id: string): Promise<{ id: string; body: string } | undefined> {
    const rows: Array<{ id: string; body: string }> = await tx.query(
      'SELECT id, body FROM campaign.uploads WHERE id = $1 FOR UPDATE SKIP LOCKED',
      [id],
    );
    return rows[0];
  }

  /** Stored lists waiting for preparation, oldest first, less those already tried in this pass. */
  async waitingUploadIds(exceptIds: readonly string[], limit: number): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      this.dataSource,
      'SELECT id FROM campaign.uploads WHERE id <> ALL($1::text[]) ORDER BY created_at LIMIT $2',
      [exceptIds, limit],
    );
    return rows.map((r) => r.id);
  }

  async deleteUpload(tx: EntityManager, id: string): Promise<void> {
    await tx.query('DELETE FROM campaign.uploads WHERE id = $1', [id]);
  }

  async finishPreparation(
    tx: EntityManager,
    id: string,
    status: CampaignStatus,
    totalCount: number,
  ): Promise<Campaign> {
    const rows = await queryRows<Row>(
      tx,
      `UPDATE campaign.campaigns SET status = $2, total_count = $3, upload_id = NULL, updated_at = now()
        WHERE id = $1 RETURNING *`,
      [id, status, totalCount],
    );
    return toCampaign(rows[0]);
  }

  /**
   * Campaigns with work to do now, locked so one replica handles each: due ones, running ones, throttled ones
   * whose recheck time has come, and a later split part whose previous part ran and has finished (pulled
   * forward when capacity allows). A previous part cancelled before it started pulls nothing forward: the
   * group's start time has not come, and the client may be cancelling the group part by part.
   */
  async claimDue(tx: EntityManager, limit: number, except: readonly string[] = []): Promise<Campaign[]> {
    const rows: Row[] = await tx.query(
      `SELECT c.* FROM campaign.campaigns c
        WHERE c.status IN ${ACTIVE}
          AND (c.next_check_at IS NULL OR c.next_check_at <= now())
          AND c.id <> ALL($2::text[])
          AND (c.status <> 'scheduled' OR c.scheduled_at IS NULL OR c.scheduled_at <= now()
               OR (c.part_number > 1 AND EXISTS (
                     SELECT 1 FROM campaign.campaigns p
                      WHERE p.campaign_group_id = c.campaign_group_id AND p.part_number = c.part_number - 1
                        AND p.started_at IS NOT NULL
                        AND p.status IN ('completed', 'cancelled', 'failed'))))
        ORDER BY c.created_at, c.part_number
        LIMIT $1
        FOR UPDATE OF c SKIP LOCKED`,
      [limit, except],
    );
    return rows.map(toCampaign);
  }

  /** The earliest future time a scheduled campaign starts or a throttled one is checked again, if any. */
  async nextDueAt(): Promise<Date | undefined> {
    const [row] = await queryRows<{ at: Date | null }>(
      this.dataSource,
      `SELECT least(
         (SELECT min(scheduled_at) FROM campaign.campaigns WHERE status = 'scheduled' AND scheduled_at > now()),
         (SELECT min(next_check_at) FROM campaign.campaigns
           WHERE status IN ${ACTIVE} AND next_check_at > now())) AS at`,
    );
    return row?.at ?? undefined;
  }

  async setStatus(
    tx: EntityManager,
    id: string,
    status: CampaignStatus,
    extra: {
      started?: boolean;
      finished?: boolean;
      failureReason?: string;
      nextCheckAt?: Date | null;
      /** A retried campaign starts over: no finish time, no failure reason. */
      reopened?: boolean;
    } = {},
  ): Promise<void> {
    await tx.query(
      `UPDATE campaign.campaigns
          SET status = $2, updated_at = now(),
              started_at = CASE WHEN $3 THEN now() ELSE started_at END,
              finished_at = CASE WHEN $4 THEN now() WHEN $7 THEN NULL ELSE finished_at END,
              failure_reason = CASE WHEN $7 THEN NULL ELSE COALESCE($5, failure_reason) END,
              next_check_at = $6
        WHERE id = $1`,
      [
        id,
        status,
        extra.started ?? false,
        extra.finished ?? false,
        extra.failureReason ?? null,
        extra.nextCheckAt ?? null,
        extra.reopened ?? false,
      ],
    );
  }

  /** Moves a tenant's campaign from one of `from` to `to`; the updated row, or undefined when it was elsewhere. */
  async transition(
    db: Db,
    id: string,
    tenantId: number,
    from: readonly CampaignStatus[],
    to: CampaignStatus,
  ): Promise<Campaign | undefined> {
    const rows = await queryRows<Row>(
      db,
      `UPDATE campaign.campaigns SET status = $4, updated_at = now(), next_check_at = NULL,
              finished_at = CASE WHEN $4 IN ('cancelled', 'completed', 'failed') THEN now() ELSE finished_at END
        WHERE id = $1 AND tenant_id = $2 AND status = ANY($3::text[]) RETURNING *`,
      [id, tenantId, from, to],
    );
    return rows[0] ? toCampaign(rows[0]) : undefined;
  }

  async counts(db: Db, campaignId: string): Promise<RecipientCounts> {
    const rows: Array<{ sent: string; failed: string; unrequested: string; in_flight: string }> =
      await db.query(
        `SELECT count(*) FILTER (WHERE status = 'sent') AS sent,
              count(*) FILTER (WHERE status = 'failed') AS failed,
              count(*) FILTER (WHERE status = 'pending' AND requested_at IS NULL) AS unrequested,
              count(*) FILTER (WHERE status = 'pending' AND requested_at IS NOT NULL) AS in_flight
         FROM campaign.recipients WHERE campaign_id = $1`,
        [campaignId],
      );
    const r = rows[0];
    return {
      sent: Number(r.sent),
      failed: Number(r.failed),
      unrequested: Number(r.unrequested),
      inFlight: Number(r.in_flight),
    };
  }

  /** A page of the tenant's campaigns, newest first (campaigns_tenant_idx), or a split group's parts in order. */
  async pageForTenant(
    tenantId: number,
    query: { page: number; per_page: number; status?: CampaignStatus; campaign_group_id?: string },
  ): Promise<{ campaigns: Campaign[]; total: number }> {
    const where = `tenant_id = $1 AND ($2::text IS NULL OR status = $2) AND ($3::text IS NULL OR campaign_group_id = $3)`;
    const order = query.campaign_group_id ? 'part_number' : 'created_at DESC, id DESC';
    const params = [tenantId, query.status ?? null, query.campaign_group_id ?? null];
    const [rows, count] = await Promise.all([
      queryRows<Row>(
        this.dataSource,
        `SELECT * FROM campaign.campaigns WHERE ${where} ORDER BY ${order}
          LIMIT ${query.per_page} OFFSET ${(query.page - 1) * query.per_page}`,
        params,
      ),
      queryRows<{ total: string }>(
        this.dataSource,
        `SELECT count(*) AS total FROM campaign.campaigns WHERE ${where}`,
        params,
      ),
    ]);
    return { campaigns: rows.map(toCampaign), total: Number(count[0].total) };
  }

  /** Sent and failed recipients of each campaign of a page, in one statement (recipients_status_idx). */
  async countsOf(campaignIds: readonly string[]): Promise<Map<string, { sent: number; failed: number }>> {
    const out = new Map<string, { sent: number; failed: number }>();
    if (campaignIds.length === 0) return out;
    const rows = await queryRows<{ campaign_id: string; sent: string; failed: string }>(
      this.dataSource,
      `SELECT campaign_id, count(*) FILTER (WHERE status = 'sent') AS sent,
              count(*) FILTER (WHERE status = 'failed') AS failed
         FROM campaign.recipients WHERE campaign_id = ANY($1::text[]) AND status IN ('sent', 'failed')
        GROUP BY campaign_id`,
      [campaignIds],
    );
    for (const r of rows) out.set(r.campaign_id, { sent: Number(r.sent), failed: Number(r.failed) });
    return out;
  }
}
