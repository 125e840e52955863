import { newUlid } from '@bm/platform';
import type { DataSource, EntityManager } from 'typeorm';
import { TemplateEntity } from './template.entity';

export interface Template {
  id: string;
  channelAccountId: string;
  upstreamId: string | null;
  name: string;
  language: string;
  status: string;
  category: string;
  headerFormat: string | null;
  headerSampleMediaUrl: string | null;
  components: Array<Record<string, unknown>>;
}

export type TemplateInput = Omit<Template, 'id' | 'channelAccountId'>;

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
});

export class TemplateRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Inserts or refreshes the account's templates by (name, language); returns the stored rows. */
  async upsertMany(
    tx: EntityManager,
    channelAccountId: string,
    templates: TemplateInput[],
  ): Promise<Template[]> {
    const stored: Template[] = [];
    for (const t of templates) {
      const rows: Array<{ id: string }> = await tx.query(
        `INSERT INTO messaging.templates
           (id, channel_account_id, upstream_id, name, language, status, category, header_format,
            header_sample_media_url, components, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now())
         ON CONFLICT (channel_account_id, name, language) DO UPDATE SET
           upstream_id = EXCLUDED.upstream_id, status = EXCLUDED.status, category = EXCLUDED.category,
           header_format = EXCLUDED.header_format, header_sample_media_url = EXCLUDED.header_sample_media_url,
           components = EXCLUDED.components, updated_at = now()
         RETURNING id`,
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
      stored.push({ ...t, id: rows[0].id, channelAccountId });
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

  /** Sets the status of an account's template; the previous one is returned, or undefined when unknown. */
  async updateStatus(
    tx: EntityManager,
    channelAccountId: string,
    name: string,
    language: string,
    status: string,
    category: string | null,
  ): Promise<{ template: Template; previousStatus: string } | undefined> {
    const repo = tx.getRepository(TemplateEntity);
    const found = await repo.findOne({
      where: { channelAccountId, name, language },
      lock: { mode: 'pessimistic_write' },
    });
    if (!found) return undefined;
    const previousStatus = found.status;
    found.status = status;
    if (category) found.category = category;
    await repo.save(found);
    return { template: toTemplate(found), previousStatus };
  }
}
