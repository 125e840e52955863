import type { SubmitTemplateRequest, TemplateDto } from '@bm/contracts';
import { AppError } from '@bm/platform';
import { describeFailure } from '../../data-access/upstream/upstream-errors';
import { emitEvent } from '../emit-event';
import type { MessagingDeps } from '../messaging-deps';
import { templateFlagDto, toTemplateDto } from './template.dto';

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
