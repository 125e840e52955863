import { ulidSchema, type TemplateDto } from '@bm/contracts';
import { AppError } from '@bm/platform';
import { syncTemplates, type SyncTemplatesDeps } from '../accounts/connect-channel-account.use-case';
import { toTemplateDto } from './template.dto';

/**
 * The dashboard's Sync: the operator's template sync, for one of the tenant's own active numbers; another
 * tenant's number, or an unknown one, is 404 CHANNEL_ACCOUNT_NOT_FOUND.
 */
export async function syncTenantTemplates(
  deps: SyncTemplatesDeps,
  tenantId: number,
  channelAccountId: string,
): Promise<{ channel_account_id: string; templates: TemplateDto[]; webhooks_subscribed: boolean }> {
  const account = ulidSchema.validate(channelAccountId).error
    ? undefined
    : await deps.accounts.findActiveForTenant(channelAccountId, tenantId);
  if (!account) throw new AppError('CHANNEL_ACCOUNT_NOT_FOUND');
  const { templates, webhooksSubscribed } = await syncTemplates(deps, account.id);
  return {
    channel_account_id: account.id,
    templates: templates.map(toTemplateDto),
    webhooks_subscribed: webhooksSubscribed,
  };
}
