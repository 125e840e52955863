import { templateDefinitionErrors, type SubmitTemplateRequest, type TemplateDto } from '@bm/contracts';
import { AppError } from '@bm/platform';
import { describeFailure } from '../lifecycle/message-lifecycle';
import { toTemplateInput } from '../accounts/connect-channel-account.use-case';
import type { MessagingDeps } from '../messaging-deps';
import { templateEventFields, toTemplateDto } from './template.dto';

/**
 * POST /api/v1/templates: checks the components as the upstream reviews them (422 VALIDATION_ERROR naming each
 * field), submits the template upstream, stores it PENDING and emits `template.submitted`.
 */
export async function submitTemplate(
  deps: Pick<MessagingDeps, 'accounts' | 'templates' | 'secrets' | 'upstream' | 'unitOfWork' | 'outbox'>,
  tenantId: number,
  input: SubmitTemplateRequest,
): Promise<TemplateDto> {
  const errors = templateDefinitionErrors(input.components);
  if (errors.length > 0) throw new AppError('VALIDATION_ERROR', 'The template is invalid', { errors });
  const account = await deps.accounts.findActiveForTenant(input.channel_account_id, tenantId);
  if (!account) throw new AppError('NO_ACTIVE_ACCOUNT');
  // The upstream refuses a second template of one name and language; said here on the field, before the call.
  if (await deps.templates.find(account.id, input.name, input.language)) {
    throw new AppError('VALIDATION_ERROR', 'The template is invalid', {
      errors: [
        { field: 'name', message: `a template named ${input.name} already exists in ${input.language}` },
      ],
    });
  }
  const submission = {
    name: input.name,
    language: input.language,
    category: input.category,
    components: input.components as unknown as Array<Record<string, unknown>>,
  };
  const result = await deps.upstream.createTemplate(
    account.wabaId,
    deps.secrets.open(account.accessTokenSealed),
    submission,
  );
  if (!result.ok) throw new AppError('UPSTREAM_ERROR', describeFailure(result.code, result.message));
  // Stored as the upstream would list it: its id, status and category with the submitted components.
  const template = toTemplateInput({
    ...submission,
    id: result.id,
    status: result.status,
    category: result.category,
  })!;
  return deps.unitOfWork.inTransaction(async (tx) => {
    const [stored] = await deps.templates.upsertMany(tx, account.id, [template]);
    await deps.outbox.emit(tx, 'template.submitted', tenantId, templateEventFields(stored, null));
    return toTemplateDto(stored);
  });
}
