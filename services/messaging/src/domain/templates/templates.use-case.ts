import type { ListTemplatesQuery, SubmitTemplateRequest, TemplateDto, TemplateFlagDto } from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { Template, TemplateFlag } from '../../data-access/template.repository';
import { describeFailure } from '../../data-access/upstream/upstream-errors';
import { emitEvent } from '../emit-event';
import type { MessagingDeps } from '../messaging-deps';

export function templateFlagDto(flag: TemplateFlag | null): TemplateFlagDto | null {
  return flag && { reason: flag.reason, flagged_at: flag.flaggedAt.toISOString() };
}

export function toTemplateDto(t: Template): TemplateDto {
  return {
    id: t.id,
    channel_account_id: t.channelAccountId,
    name: t.name,
    language: t.language,
    status: t.status as TemplateDto['status'],
    category: t.category as TemplateDto['category'],
    header_format: t.headerFormat as TemplateDto['header_format'],
    header_sample_media_url: t.headerSampleMediaUrl,
    components: t.components as unknown as TemplateDto['components'],
    flag: templateFlagDto(t.flag),
  };
}

/** GET /api/v1/templates: the tenant's templates, optionally of one account and one status. */
export async function listTemplates(
  deps: MessagingDeps,
  tenantId: number,
  query: ListTemplatesQuery,
): Promise<TemplateDto[]> {
  const accounts = await deps.accounts.listForTenant(tenantId);
  const ids = accounts
    .map((a) => a.id)
    .filter((id) => !query.channel_account_id || id === query.channel_account_id);
  return (await deps.templates.listForAccounts(ids, query.status)).map(toTemplateDto);
}

/** POST /api/v1/templates: submits a template upstream, stores it PENDING and emits `template.submitted`. */
export async function submitTemplate(
  deps: MessagingDeps,
  tenantId: number,
  input: SubmitTemplateRequest,
): Promise<TemplateDto> {
  const account = await deps.accounts.findActiveForTenant(input.channel_account_id, tenantId);
  if (!account) throw new AppError('NO_ACTIVE_ACCOUNT');
  const result = await deps.upstream.createTemplate(
    account.wabaId,
    deps.secrets.open(account.accessTokenSealed),
    {
      name: input.name,
      language: input.language,
      category: input.category,
      components: input.components,
    },
  );
  if (!result.ok) throw new AppError('UPSTREAM_ERROR', describeFailure(result.code, result.message));
  return deps.dataSource.transaction(async (tx) => {
    const header = input.components.find((c) => c.type.toUpperCase() === 'HEADER');
    const [stored] = await deps.templates.upsertMany(tx, account.id, [
      {
        upstreamId: result.id,
        name: input.name,
        language: input.language,
        status: result.status.toUpperCase(),
        category: result.category.toUpperCase(),
        headerFormat: header?.format?.toUpperCase() ?? null,
        headerSampleMediaUrl:
          (header?.example as { header_handle?: string[] } | undefined)?.header_handle?.[0] ?? null,
        components: input.components as unknown as Array<Record<string, unknown>>,
      },
    ]);
    await emitEvent(tx, 'template.submitted', tenantId, {
      channel_account_id: account.id,
      template_id: stored.id,
      name: stored.name,
      language: stored.language,
      status: stored.status as TemplateDto['status'],
      category: stored.category as TemplateDto['category'],
      reason: null,
      flag: templateFlagDto(stored.flag),
    });
    return toTemplateDto(stored);
  });
}
