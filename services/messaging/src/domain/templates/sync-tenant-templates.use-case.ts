import type { TemplateDto } from '@bm/contracts';
import { findTenantAccount } from '../accounts/find-tenant-account';
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
  const account = await findTenantAccount(deps, tenantId, channelAccountId);
  const { templates, webhooksSubscribed } = await syncTemplates(deps, account.id);
  return {
    channel_account_id: account.id,
    templates: templates.map(toTemplateDto),
    webhooks_subscribed: webhooksSubscribed,
  };
}
