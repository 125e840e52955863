import type { CampaignStatus, HeaderMediaInput, TemplateCategory, TemplateComponent } from '@bm/contracts';
import { JUST_DUE, queryRows } from '@bm/platform';
import type {
  Campaign,
  Campaigns,
  CostEstimate,
  NewCampaign,
  RecipientCounts,
  StatusChange,
} from '../domain/ports/campaigns.port';
import type { Uploads } from '../domain/ports/uploads.port';
import type { Db } from './db';

interface Row {
  id: string;
  tenant_id: number;
  channel_account_id: string;
  name: string | null;
  status: CampaignStatus;
  template_name: string;
  template_language: string;
  template_category: TemplateCategory | null;
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
  /** numeric: pg answers a string. */
  estimated_cost: string | null;
  cost_currency: string | null;
  cost_amount: string;
  cost_checked_at: Date | null;
}

const toCampaign = (r: Row): Campaign => ({
  id: r.id,
  tenantId: r.tenant_id,
  channelAccountId: r.channel_account_id,
  name: r.name,
  status: r.status,
  templateName: r.template_name,
  templateLanguage: r.template_language,
  templateCategory: r.template_category,
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
  estimatedCost: r.estimated_cost === null ? null : Number(r.estimated_cost),
  costCurrency: r.cost_currency,
  costAmount: Number(r.cost_amount),
  costCheckedAt: r.cost_checked_at,
});

/** Where campaigns' triggers announce a campaign the dispatcher has to step, and when (epoch ms). */
export const DISPATCH_CHANNEL = 'campaign_dispatch';

/** Statuses the dispatcher works on. */
const ACTIVE = `('pending', 'scheduled', 'processing', 'throttled')`;

/** The campaigns in SQL, on the data source or inside one transaction (see CampaignUnitOfWork). */
export class CampaignRepository implements Campaigns, Uploads {
  constructor(private readonly db: Db) {}

  /** Campaigns not yet finished, counted by status. */
  async countActiveByStatus(): Promise<Array<{ status: string; count: number }>> {
    const rows = await queryRows<{ status: string; count: string }>(
      this.db,
      `SELECT status, count(*) AS count FROM campaign.campaigns
        WHERE status IN ('preparing', 'pending', 'scheduled', 'processing', 'throttled', 'paused')
        GROUP BY status`,
    );
    return rows.map((r) => ({ status: r.status, count: Number(r.count) }));
  }

  async insertUpload(id: string, tenantId: number, body: string): Promise<void> {
    await this.db.query('INSERT INTO campaign.uploads (id, tenant_id, body) VALUES ($1, $2, $3)', [
      id,
      tenantId,
      body,
    ]);
  }

  async insert(c: NewCampaign): Promise<Campaign> {
    const rows = await queryRows<Row>(
      this.db,
      `INSERT INTO campaign.campaigns
         (id, tenant_id, channel_account_id, name, status, template_name, template_language, template_components,
          template_params, header_media, requested_count, scheduled_at, campaign_group_id, part_number,
          parts_total, idempotency_key, upload_id, upload_offset, template_category)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19) RETURNING *`,
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
        c.templateCategory,
      ],
    );
    return toCampaign(rows[0]);
  }

  async findForTenant(id: string, tenantId: number, { lock = false } = {}): Promise<Campaign | undefined> {
    return this.one(
      `SELECT * FROM campaign.campaigns WHERE id = $1 AND tenant_id = $2${lock ? ' FOR UPDATE' : ''}`,
      [id, tenantId],
    );
  }

  async lockUploadCampaigns(uploadId: string): Promise<Campaign[]> {
    return this.many(
      'SELECT * FROM campaign.campaigns WHERE upload_id = $1 ORDER BY part_number NULLS FIRST FOR UPDATE',
      [uploadId],
    );
  }

  async lockUpload(id: string): Promise<{ id: string; body: string } | undefined> {
    const rows = await queryRows<{ id: string; body: string }>(
      this.db,
      'SELECT id, body FROM campaign.uploads WHERE id = $1 FOR UPDATE SKIP LOCKED',
      [id],
    );
    return rows[0];
  }

  async waitingUploadIds(exceptIds: readonly string[], limit: number): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      this.db,
      'SELECT id FROM campaign.uploads WHERE id <> ALL($1::text[]) ORDER BY created_at LIMIT $2',
      [exceptIds, limit],
    );
    return rows.map((r) => r.id);
  }

  async deleteUpload(id: string): Promise<void> {
    await this.db.query('DELETE FROM campaign.uploads WHERE id = $1', [id]);
  }

  async finishPreparation(
    id: string,
    status: CampaignStatus,
    totalCount: number,
    estimate: CostEstimate | null,
  ): Promise<Campaign> {
    return (await this.one(
      `UPDATE campaign.campaigns
          SET status = $2, total_count = $3, estimated_cost = $4, cost_currency = $5, upload_id = NULL,
              updated_at = now()
        WHERE id = $1 RETURNING *`,
      [id, status, totalCount, estimate?.amount ?? null, estimate?.currency ?? null],
    ))!;
  }

  /**
   * Due ones, running ones, throttled ones whose recheck time has come (a lease is a recheck time too), and a
   * later split part whose previous part ran and has finished (pulled forward when capacity allows). A previous
   * part cancelled before it started pulls nothing forward: the group's start time has not come, and the client
   * may be cancelling the group part by part.
   */
  async claimDue(except: readonly string[]): Promise<Campaign | undefined> {
    return this.one(
      `SELECT c.* FROM campaign.campaigns c
        WHERE c.status IN ${ACTIVE}
          AND (c.next_check_at IS NULL OR c.next_check_at <= now())
          AND c.id <> ALL($1::text[])
          AND (c.status <> 'scheduled' OR c.scheduled_at IS NULL OR c.scheduled_at <= now()
               OR (c.part_number > 1 AND EXISTS (
                     SELECT 1 FROM campaign.campaigns p
                      WHERE p.campaign_group_id = c.campaign_group_id AND p.part_number = c.part_number - 1
                        AND p.started_at IS NOT NULL
                        AND p.status IN ('completed', 'cancelled', 'failed'))))
        ORDER BY c.created_at, c.part_number
        LIMIT 1
        FOR UPDATE OF c SKIP LOCKED`,
      [except],
    );
  }

  /** The earliest future time a scheduled campaign starts or a throttled one is checked again, if any. */
  async nextDueAt(): Promise<Date | undefined> {
    const [row] = await queryRows<{ at: Date | null }>(
      this.db,
      `SELECT least(
         (SELECT min(scheduled_at) FROM campaign.campaigns WHERE status = 'scheduled' AND scheduled_at > now() - ${JUST_DUE}),
         (SELECT min(next_check_at) FROM campaign.campaigns
           WHERE status IN ${ACTIVE} AND next_check_at > now() - ${JUST_DUE})) AS at`,
    );
    return row?.at ?? undefined;
  }

  async lease(id: string, until: Date): Promise<void> {
    await this.db.query('UPDATE campaign.campaigns SET next_check_at = $2 WHERE id = $1', [id, until]);
  }

  async reclaim(id: string, until: Date): Promise<Campaign | undefined> {
    return this.one(
      `UPDATE campaign.campaigns SET next_check_at = NULL
        WHERE id = $1 AND next_check_at = $2 AND status IN ${ACTIVE} RETURNING *`,
      [id, until],
    );
  }

  async setStatus(id: string, status: CampaignStatus, change: StatusChange = {}): Promise<void> {
    await this.db.query(
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
        change.started ?? false,
        change.finished ?? false,
        change.failureReason ?? null,
        change.nextCheckAt ?? null,
        change.reopened ?? false,
      ],
    );
  }

  async transition(
    id: string,
    tenantId: number,
    from: readonly CampaignStatus[],
    to: CampaignStatus,
  ): Promise<Campaign | undefined> {
    return this.one(
      `UPDATE campaign.campaigns SET status = $4, updated_at = now(), next_check_at = NULL,
              finished_at = CASE WHEN $4 IN ('cancelled', 'completed', 'failed') THEN now() ELSE finished_at END
        WHERE id = $1 AND tenant_id = $2 AND status = ANY($3::text[]) RETURNING *`,
      [id, tenantId, from, to],
    );
  }

  /** Summed from the counters its recipients' triggers keep (RecipientCounts1765400000000), not counted. */
  async counts(campaignId: string): Promise<RecipientCounts> {
    const [r] = await queryRows<{ sent: string; failed: string; unrequested: string; in_flight: string }>(
      this.db,
      `SELECT coalesce(sum(sent), 0) AS sent, coalesce(sum(failed), 0) AS failed,
              coalesce(sum(unrequested), 0) AS unrequested, coalesce(sum(in_flight), 0) AS in_flight
         FROM campaign.recipient_counts WHERE campaign_id = $1`,
      [campaignId],
    );
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
        this.db,
        `SELECT * FROM campaign.campaigns WHERE ${where} ORDER BY ${order}
          LIMIT ${query.per_page} OFFSET ${(query.page - 1) * query.per_page}`,
        params,
      ),
      queryRows<{ total: string }>(
        this.db,
        `SELECT count(*) AS total FROM campaign.campaigns WHERE ${where}`,
        params,
      ),
    ]);
    return { campaigns: rows.map(toCampaign), total: Number(count[0].total) };
  }

  /** Sent and failed recipients of each campaign of a page, in one statement (from recipient_counts). */
  async countsOf(campaignIds: readonly string[]): Promise<Map<string, { sent: number; failed: number }>> {
    const out = new Map<string, { sent: number; failed: number }>();
    if (campaignIds.length === 0) return out;
    const rows = await queryRows<{ campaign_id: string; sent: string; failed: string }>(
      this.db,
      `SELECT campaign_id, sum(sent) AS sent, sum(failed) AS failed
         FROM campaign.recipient_counts WHERE campaign_id = ANY($1::text[])
        GROUP BY campaign_id`,
      [campaignIds],
    );
    for (const r of rows) out.set(r.campaign_id, { sent: Number(r.sent), failed: Number(r.failed) });
    return out;
  }

  async recordCost(id: string, amount: number): Promise<void> {
    await this.db.query(
      'UPDATE campaign.campaigns SET cost_amount = $2, cost_checked_at = now() WHERE id = $1',
      [id, amount],
    );
  }

  private async many(sql: string, params: unknown[]): Promise<Campaign[]> {
    return (await queryRows<Row>(this.db, sql, params)).map(toCampaign);
  }

  private async one(sql: string, params: unknown[]): Promise<Campaign | undefined> {
    return (await this.many(sql, params))[0];
  }
}
