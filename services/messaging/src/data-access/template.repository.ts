import { canonicalLanguageCode } from '@bm/contracts';
import { newUlid } from '@bm/platform';
import type { DataSource, EntityManager } from 'typeorm';
import { TemplateEntity } from './template.entity';
import type {
  Template,
  TemplateFlag,
  TemplateInput,
  TemplateState,
  TemplateStore,
} from '../domain/ports/template.port';

const flagOf = (flaggedAt: Date | null, reason: string | null): TemplateFlag | null =>
  flaggedAt === null ? null : { reason, flaggedAt };

const toTemplate = (e: TemplateEntity): Template => ({
  id: e.id,
  channelAccountId: e.channelAccountId,
  upstreamId: e.upstreamId,
  name: e.name,
  language: e.language,
  status: e.status,
  category: e.category,
  headerFormat: e.headerFormat,
  headerSampleMediaUrl: e.headerSampleMediaUrl,
  components: e.components as Array<Record<string, unknown>>,
  flag: flagOf(e.flaggedAt, e.flagReason),
  rejectedReason: e.rejectedReason,
});

export class TemplateRepository implements TemplateStore {
  constructor(private readonly dataSource: DataSource) {}

  /** Inserts or refreshes the account's templates by (name, language); returns the stored rows. */
  async upsertMany(
    tx: EntityManager,
    channelAccountId: string,
    templates: TemplateInput[],
  ): Promise<Template[]> {
    const stored: Template[] = [];
    for (const t of templates) {
      // A refresh from the upstream's listing keeps the flag and a rejected template's reason: the listing
      // carries neither.
      const rows: Array<{
        id: string;
        flagged_at: Date | null;
        flag_reason: string | null;
        rejected_reason: string | null;
      }> = await tx.query(
        `INSERT INTO messaging.templates
           (id, channel_account_id, upstream_id, name, language, status, category, header_format,
            header_sample_media_url, components, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now())
         ON CONFLICT (channel_account_id, name, language) DO UPDATE SET
           upstream_id = EXCLUDED.upstream_id, status = EXCLUDED.status, category = EXCLUDED.category,
           header_format = EXCLUDED.header_format, header_sample_media_url = EXCLUDED.header_sample_media_url,
           components = EXCLUDED.components, updated_at = now(),
           rejected_reason = CASE WHEN EXCLUDED.status = 'REJECTED' THEN templates.rejected_reason END
         RETURNING id, flagged_at, flag_reason, rejected_reason`,
        [
          newUlid(),
          channelAccountId,
          t.upstreamId,
          t.name,
          t.language,
          t.status,
          t.category,
          t.headerFormat,
          t.headerSampleMediaUrl,
          JSON.stringify(t.components),
        ],
      );
      const [row] = rows;
      stored.push({
        ...t,
        id: row.id,
        channelAccountId,
        flag: flagOf(row.flagged_at, row.flag_reason),
        rejectedReason: row.rejected_reason,
      });
    }
    return stored;
  }

  /**
   * The template of that name (and language, when given; else the first by language) for the account. Inside a
   * transaction pass it as `db`: asking the pool for a second connection while holding one can exhaust the pool.
   */
  async find(
    channelAccountId: string,
    name: string,
    language?: string,
    db: DataSource | EntityManager = this.dataSource,
  ): Promise<Template | undefined> {
    const found = await db.getRepository(TemplateEntity).findOne({
      where: language ? { channelAccountId, name, language } : { channelAccountId, name },
      order: { language: 'ASC' },
    });
    return found ? toTemplate(found) : undefined;
  }

  async listForAccounts(accountIds: string[], status?: string): Promise<Template[]> {
    if (accountIds.length === 0) return [];
    const qb = this.dataSource
      .getRepository(TemplateEntity)
      .createQueryBuilder('t')
      .where('t.channel_account_id IN (:...accountIds)', { accountIds })
      .orderBy('t.name', 'ASC')
      .addOrderBy('t.language', 'ASC');
    if (status) qb.andWhere('t.status = :status', { status });
    return (await qb.getMany()).map(toTemplate);
  }

  /**
   * An account's template, locked until the transaction ends, by name and language in either spelling: the
   * upstream writes `en-US` in places where listings and sends use `en_US`.
   */
  async findForUpdate(
    tx: EntityManager,
    channelAccountId: string,
    name: string,
    language: string,
  ): Promise<Template | undefined> {
    const found = await tx
      .getRepository(TemplateEntity)
      .createQueryBuilder('t')
      .setLock('pessimistic_write')
      .where('t.channel_account_id = :channelAccountId AND t.name = :name', { channelAccountId, name })
      .andWhere(`replace(t.language, '-', '_') = :language`, { language: canonicalLanguageCode(language) })
      .orderBy('t.language', 'ASC')
      .getOne();
    return found ? toTemplate(found) : undefined;
  }

  /** Sets what the upstream's status updates decide: status, category, quality flag and rejection reason. */
  async setState(tx: EntityManager, id: string, state: TemplateState): Promise<void> {
    await tx.query(
      `UPDATE messaging.templates
          SET status = $2, category = $3, flagged_at = $4, flag_reason = $5, rejected_reason = $6,
              updated_at = now()
        WHERE id = $1`,
      [
        id,
        state.status,
        state.category,
        state.flag?.flaggedAt ?? null,
        state.flag?.reason ?? null,
        state.rejectedReason,
      ],
    );
  }
}
