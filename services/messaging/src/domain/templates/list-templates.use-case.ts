import type { ListTemplatesQuery, TemplateDto } from '@bm/contracts';
import type { MessagingDeps } from '../messaging-deps';
import { toTemplateDto } from './template.dto';

/** GET /api/v1/templates: the tenant's templates, optionally of one account and one status. */
export async function listTemplates(
  deps: Pick<MessagingDeps, 'templates' | 'accounts'>,
  tenantId: number,
  query: ListTemplatesQuery,
): Promise<TemplateDto[]> {
  const accounts = await deps.accounts.listForTenant(tenantId);
  const ids = accounts
    .map((a) => a.id)
    .filter((id) => !query.channel_account_id || id === query.channel_account_id);
  return (await deps.templates.listForAccounts(ids, query.status)).map(toTemplateDto);
}
