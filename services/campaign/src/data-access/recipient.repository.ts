import type { RecipientStatus } from '@bm/contracts';
import { queryRows } from '@bm/platform';
import type {
  AddressPrefixCount,
  MessageOutcome,
  NewRecipient,
  Recipient,
  RecipientFailure,
  Recipients,
} from '../domain/ports/recipients.port';
import type { Db } from './db';

/** A row as the database answers it: the recipient's own fields are named alike, the rest in snake case. */
type Row = Omit<Recipient, 'userId' | 'messageLogId' | 'errorMessage' | 'sentAt'> & {
  user_id: string | null;
  message_log_id: string | null;
  error_message: string | null;
  sent_at: Date | null;
};

const toRecipient = (r: Row): Recipient => ({
  id: String(r.id),
  phone: r.phone,
  userId: r.user_id,
  name: r.name,
  variables: r.variables,
  status: r.status,
  attempt: r.attempt,
  messageLogId: r.message_log_id === null ? null : String(r.message_log_id),
  errorMessage: r.error_message,
  sentAt: r.sent_at,
});

/** A campaign's recipients in SQL, on the data source or inside one transaction. */
export class RecipientRepository implements Recipients {
  constructor(private readonly db: Db) {}

  /** Writes a campaign's recipients in one statement (arrays unnested server-side, like COPY without a stream). */
  async insertMany(campaignId: string, recipients: readonly NewRecipient[]): Promise<void> {
    if (recipients.length === 0) return;
    await this.db.query(
      `INSERT INTO campaign.recipients (campaign_id, phone, user_id, name, variables, invalid, status, error_message)
       SELECT $1, r.phone, r.user_id, r.name, r.variables, r.error IS NOT NULL,
              CASE WHEN r.error IS NOT NULL THEN 'failed' ELSE 'pending' END, r.error
         FROM unnest($2::text[], $3::text[], $4::jsonb[], $5::text[], $6::text[])
           AS r(phone, name, variables, error, user_id)`,
      [
        campaignId,
        recipients.map((r) => r.phone),
        recipients.map((r) => r.name),
        recipients.map((r) => (r.variables ? JSON.stringify(r.variables) : null)),
        recipients.map((r) => r.error),
        recipients.map((r) => r.userId),
      ],
    );
  }

  /** Removes the valid recipients whose phone the tenant has opted out; how many, per campaign. */
  async dropOptedOut(tenantId: number, campaignIds: readonly string[]): Promise<Map<string, number>> {
    const rows = await queryRows<{ campaign_id: string }>(
      this.db,
      `DELETE FROM campaign.recipients r USING campaign.opt_outs o
        WHERE r.campaign_id = ANY($2::text[]) AND NOT r.invalid AND o.tenant_id = $1 AND o.phone = r.phone
        RETURNING r.campaign_id`,
      [tenantId, campaignIds],
    );
    const dropped = new Map<string, number>();
    for (const r of rows) dropped.set(r.campaign_id, (dropped.get(r.campaign_id) ?? 0) + 1);
    return dropped;
  }

  async countByAddressPrefix(
    campaignIds: readonly string[],
    prefixLength: number,
  ): Promise<AddressPrefixCount[]> {
    const rows = await queryRows<{ campaign_id: string; prefix: string; by_user_id: boolean; count: string }>(
      this.db,
      `SELECT campaign_id, left(phone, $2) AS prefix, user_id IS NOT NULL AS by_user_id, count(*) AS count
         FROM campaign.recipients WHERE campaign_id = ANY($1::text[]) AND NOT invalid GROUP BY 1, 2, 3`,
      [campaignIds, prefixLength],
    );
    return rows.map((r) => ({
      campaignId: r.campaign_id,
      prefix: r.prefix,
      byUserId: r.by_user_id,
      count: Number(r.count),
    }));
  }

  async exportPage(
    campaignId: string,
    after: { status: string; id: string } | null,
    limit: number,
  ): Promise<Recipient[]> {
    const keyset = after === null ? '' : 'AND (status, id) > ($3, $4::bigint)';
    const rows = await queryRows<Row>(
      this.db,
      `SELECT * FROM campaign.recipients WHERE campaign_id = $1 ${keyset} ORDER BY status, id LIMIT $2`,
      after === null ? [campaignId, limit] : [campaignId, limit, after.status, after.id],
    );
    return rows.map(toRecipient);
  }

  async page(
    campaignId: string,
    status: RecipientStatus | undefined,
    page: number,
    perPage: number,
  ): Promise<{ recipients: Recipient[]; total: number }> {
    const filter = status ? 'AND status = $2' : '';
    const params: unknown[] = status ? [campaignId, status] : [campaignId];
    const [rows, count] = await Promise.all([
      this.db.query<Row[]>(
        `SELECT * FROM campaign.recipients WHERE campaign_id = $1 ${filter}
          ORDER BY id LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`,
        params,
      ),
      this.db.query<Array<{ total: string }>>(
        `SELECT count(*) AS total FROM campaign.recipients WHERE campaign_id = $1 ${filter}`,
        params,
      ),
    ]);
    return { recipients: rows.map(toRecipient), total: Number(count[0].total) };
  }

  /** The next recipients not yet handed to messaging, locked, with whether their phone has opted out since. */
  async takeUnrequested(
    campaignId: string,
    tenantId: number,
    limit: number,
  ): Promise<Array<Recipient & { optedOut: boolean }>> {
    const rows = await queryRows<Row & { opted_out: boolean }>(
      this.db,
      `SELECT r.*, EXISTS (SELECT 1 FROM campaign.opt_outs o WHERE o.tenant_id = $2 AND o.phone = r.phone) AS opted_out
         FROM campaign.recipients r
        WHERE r.campaign_id = $1 AND r.status = 'pending' AND r.requested_at IS NULL
        ORDER BY r.id LIMIT $3 FOR UPDATE OF r`,
      [campaignId, tenantId, limit],
    );
    return rows.map((r) => ({ ...toRecipient(r), optedOut: r.opted_out }));
  }

  async markRequested(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.query('UPDATE campaign.recipients SET requested_at = now() WHERE id = ANY($1::bigint[])', [
      ids,
    ]);
  }

  async failMany(failures: readonly RecipientFailure[]): Promise<void> {
    if (failures.length === 0) return;
    await this.db.query(
      `UPDATE campaign.recipients r SET status = 'failed', error_message = f.error_message
         FROM unnest($1::bigint[], $2::text[]) AS f(id, error_message)
        WHERE r.id = f.id AND r.status = 'pending'`,
      [failures.map((f) => f.id), failures.map((f) => f.errorMessage)],
    );
  }

  /** Fails every recipient still pending and not handed to messaging (a campaign that cannot go on). */
  async failUnrequested(campaignId: string, errorMessage: string): Promise<void> {
    await this.db.query(
      `UPDATE campaign.recipients SET status = 'failed', error_message = $2
        WHERE campaign_id = $1 AND status = 'pending' AND requested_at IS NULL`,
      [campaignId, errorMessage],
    );
  }

  /**
   * Records messaging's answers about recipients' messages in one statement, for each recipient's current
   * attempt only: `sent` once the upstream took it, `failed` (final) when it failed before or after. A duplicate
   * or stale answer changes nothing. Answers about one recipient are merged first (a failure wins: it is final).
   * Returns how many recipients changed, by outcome.
   */
  async applyOutcomes(outcomes: readonly MessageOutcome[]): Promise<{ sent: number; failed: number }> {
    const merged = new Map<string, MessageOutcome>();
    for (const o of outcomes) {
      const key = `${o.recipientId}:${o.attempt}`;
      const earlier = merged.get(key);
      if (!earlier || (earlier.status === 'sent' && o.status === 'failed')) merged.set(key, o);
    }
    const list = [...merged.values()];
    const rows = await queryRows<{ status: 'sent' | 'failed' }>(
      this.db,
      `UPDATE campaign.recipients r
          SET status = o.status, message_log_id = o.message_log_id,
              sent_at = CASE WHEN o.status = 'sent' THEN o.at ELSE r.sent_at END,
              error_message = CASE WHEN o.status = 'failed' THEN o.error_message ELSE NULL END
         FROM unnest($1::bigint[], $2::int[], $3::text[], $4::bigint[], $5::text[], $6::timestamptz[])
                AS o(id, attempt, status, message_log_id, error_message, at)
        WHERE r.id = o.id AND r.attempt = o.attempt
          AND (r.status = 'pending' OR (r.status = 'sent' AND o.status = 'failed'))
        RETURNING r.status`,
      [
        list.map((o) => o.recipientId),
        list.map((o) => o.attempt),
        list.map((o) => o.status),
        list.map((o) => o.messageLogId),
        list.map((o) => o.errorMessage),
        list.map((o) => o.at),
      ],
    );
    return {
      sent: rows.filter((r) => r.status === 'sent').length,
      failed: rows.filter((r) => r.status === 'failed').length,
    };
  }

  /**
   * Queues again the failed recipients of a campaign, except invalid phones and phones opted out now: each gets
   * a new attempt, so messaging sees a new send. Returns how many.
   */
  async resetFailed(campaignId: string, tenantId: number): Promise<number> {
    const rows = await queryRows<{ id: string }>(
      this.db,
      `UPDATE campaign.recipients r
          SET status = 'pending', attempt = r.attempt + 1, requested_at = NULL, message_log_id = NULL,
              error_message = NULL, sent_at = NULL
        WHERE r.campaign_id = $1 AND r.status = 'failed' AND NOT r.invalid
          AND NOT EXISTS (SELECT 1 FROM campaign.opt_outs o WHERE o.tenant_id = $2 AND o.phone = r.phone)
        RETURNING r.id`,
      [campaignId, tenantId],
    );
    return rows.length;
  }
}
